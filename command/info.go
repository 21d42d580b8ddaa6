package command

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/selection"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// InfoOptions are info's flags.
type InfoOptions struct {
	Output string
	Format string
	Select selection.Filter
	Paths  []string
}

// Stats summarises one session.
type Stats struct {
	Path     string         `json:"path"`
	Format   string         `json:"format"`
	Version  string         `json:"version"`
	ID       string         `json:"id"`
	Title    string         `json:"title,omitempty"`
	Cwd      string         `json:"cwd,omitempty"`
	Created  string         `json:"created,omitempty"`
	Entries  int            `json:"entries"`
	Messages int            `json:"messages"`
	Roles    map[string]int `json:"roles"`
	Kinds    map[string]int `json:"kinds"`
	Branches int            `json:"branches"`
	Leaf     string         `json:"leaf"`
	// Applied counts the records the layout applied that are not entries
	// (session.Applied: Gemini CLI's $set and $rewindTo), by name.
	Applied map[string]int `json:"applied,omitempty"`
	Tokens  TokenStats     `json:"tokens"`
	// Cost is absent when no message recorded one (Claude Code, Codex):
	// unknown, not 0
	Cost *float64 `json:"cost,omitempty"`
	// Bookkeeping counts the entries their layout declares bookkeeping
	// (session.IsBookkeeping): records, never messages
	Bookkeeping int `json:"bookkeeping"`
	// Prompts counts the user messages the user wrote: not those of
	// injected text only (transcript.Injected)
	Prompts int `json:"prompts"`
	// whether any message carried usage: the text output leaves out what
	// the session's layout does not record, rather than show 0
	used bool
}

// TokenStats sums assistant usage.
type TokenStats struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cacheRead"`
	CacheWrite int64 `json:"cacheWrite"`
}

// Info prints statistics for every session under the given paths. A path
// or session that cannot be read is reported and the others are still
// summarised; the exit code is the worst outcome.
func Info(env *Env, o InfoOptions) error {
	if o.Output != "" && o.Output != "text" && o.Output != "json" {
		return Usage("--output must be text or json, not %q", o.Output)
	}
	paths, forced, err := inputs(env, o.Paths, o.Format)
	if err != nil {
		return err
	}
	code := ExitOK
	for _, p := range paths {
		stats, c, err := infoPath(env, p, forced, o.Select)
		if err != nil {
			return err
		}
		code = exitcode.Worst(code, c)
		for _, s := range stats {
			if err := printStats(env.Stdout, s, o.Output == "json"); err != nil {
				return IO(err)
			}
		}
	}
	if code != ExitOK {
		return Silent(code)
	}
	return nil
}

func infoPath(env *Env, p string, forced format.Format, sel selection.Filter) ([]Stats, int, error) {
	var out []Stats
	code, err := readEach(env, p, forced, func(name, formatName string, r session.Reader) error {
		st, kept, err := collect(name, formatName, r, sel)
		if err == nil && kept {
			out = append(out, st)
		}
		return err
	})
	return out, code, err
}

// loadUnit is the layout to read u with. A unit whose strays only its
// validation names (format.StraysInValidation) is validated, so that they
// are named, and read from what that read where the layout keeps it; a
// store that does not validate is still described, read from the disk.
func loadUnit(env *Env, u pipeline.Unit) format.Format {
	sv, ok := u.Format.(format.StraysInValidation)
	if !ok || !sv.StraysInValidation(u.Path) {
		return u.Format
	}
	if env.HoldInput != nil {
		env.HoldInput()
	}
	rep := &report.Report{}
	f, err := sv.Load(u.Path, rep, format.ValidateOptions{})
	pipeline.PrintSkips(env.Stderr, pipeline.Strays(rep))
	if err != nil || rep.Errors() > 0 {
		return u.Format
	}
	return f
}

// collect streams one session, keeping a few bytes per entry for its
// branches and leaf (convtree.PathIndex: as export shows them and convert
// keeps them).
func collect(path, formatName string, r session.Reader, sel selection.Filter) (Stats, bool, error) {
	defer r.Close()
	m := r.Meta()
	chk := sel.Begin(m)
	if chk.Decided() && !chk.Kept() {
		return Stats{}, false, nil // another project, or out of the dates: not read further
	}
	st := Stats{Path: path, Format: formatName, Version: m.Version, ID: m.ID, Title: m.Title, Cwd: m.Cwd,
		Roles: map[string]int{}, Kinds: map[string]int{}}
	if a, ok := m.Private.(session.Applied); ok && len(a.Applied()) > 0 {
		st.Applied = a.Applied()
	}
	if !m.Created.T.IsZero() {
		st.Created = m.Created.T.UTC().Format("2006-01-02T15:04:05Z")
	}
	x := convtree.PathIndex{MessageLinks: m.MessageLinks}
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return st, false, invalidIn(path, err)
		}
		chk.Entry(e)
		st.Entries++
		st.Kinds[string(e.Kind)]++
		x.Add(e)
		if session.IsBookkeeping(e) {
			st.Bookkeeping++
		}
		if e.IsMessage() && e.Sidechain == "" && e.Message.Role == session.RoleUser && !transcript.Injected(e.Message) {
			st.Prompts++
		}
		if e.IsMessage() {
			st.Messages++
			st.Roles[string(e.Message.Role)]++
			addUsage(&st, e.Message.Usage)
		}
	}
	st.Branches = x.Plan()
	st.Leaf = x.ShownID()
	return st, chk.Kept(), nil
}

func addUsage(st *Stats, u *session.Usage) {
	if u == nil {
		return
	}
	st.used = true
	st.Tokens.Input += u.Input
	st.Tokens.Output += u.Output
	st.Tokens.CacheRead += u.CacheRead
	st.Tokens.CacheWrite += u.CacheWrite
	if u.Cost != nil {
		if st.Cost == nil {
			st.Cost = new(float64)
		}
		*st.Cost += u.Cost.Total
	}
}

func printStats(w io.Writer, s Stats, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return enc.Encode(s)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", printable(s.Path))
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "  %-9s %s\n", k+":", printable(v))
		}
	}
	row("format", s.Format+versionSuffix(s.Version))
	row("session", s.ID)
	row("title", s.Title)
	row("cwd", s.Cwd)
	row("created", s.Created)
	if s.Bookkeeping > 0 {
		row("entries", fmt.Sprintf("%d (bookkeeping %d)", s.Entries, s.Bookkeeping))
	} else {
		row("entries", fmt.Sprint(s.Entries))
	}
	row("messages", fmt.Sprintf("%d%s", s.Messages, counts(s.Roles)))
	row("prompts", fmt.Sprint(s.Prompts))
	row("branches", fmt.Sprint(s.Branches))
	row("leaf", s.Leaf)
	if len(s.Applied) > 0 {
		row("applied", strings.TrimSuffix(strings.TrimPrefix(counts(s.Applied), " ("), ")"))
	}
	if s.used {
		row("tokens", fmt.Sprintf("input %d, output %d, cache read %d, cache write %d", s.Tokens.Input, s.Tokens.Output, s.Tokens.CacheRead, s.Tokens.CacheWrite))
	}
	if s.Cost != nil {
		row("cost", fmt.Sprintf("$%.4f", *s.Cost))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func counts(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
