package command

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/selection"
	"github.com/sesstool/sesstool/session"
)

// ListOptions are list's flags.
type ListOptions struct {
	Output string
	Format string
	Select selection.Filter
	Paths  []string
}

// Row is one session's line in list.
type Row struct {
	Path    string `json:"path"`
	Format  string `json:"format"`
	ID      string `json:"id"`
	Start   string `json:"start,omitempty"` // RFC 3339, in the local time zone
	Seconds int64  `json:"durationSeconds"` // first timed entry (or the header's start) to the last
	Project string `json:"project,omitempty"`
	// Messages counts the messages of every branch, as info does.
	Messages int    `json:"messages"`
	Title    string `json:"title,omitempty"`
	start    time.Time
	timed    bool
}

// List prints one line per session: id, start, duration, project,
// messages, title. Each session is read once, an entry at a time, and
// only its row is kept until it is printed, so a store of any size lists
// in flat memory. Like info it reads without validating: a session that
// cannot be read is reported and the rest still listed.
func List(env *Env, o ListOptions) error {
	if o.Output != "" && o.Output != "text" && o.Output != "json" {
		return Usage("--output must be text or json, not %q", o.Output)
	}
	ins, err := listInputs(env, o.Paths, o.Format)
	if err != nil {
		return err
	}
	code := ExitOK
	for _, in := range ins {
		c, err := readEach(env, in.path, in.forced, func(name, formatName string, r session.Reader) error {
			row, kept, err := listRow(name, formatName, r, o.Select)
			if err != nil || !kept {
				return err
			}
			if err := printRow(env.Stdout, row, o.Output == "json"); err != nil {
				return stopErr{IO(fmt.Errorf("write standard output: %w", err))}
			}
			return nil
		})
		if err != nil {
			return err
		}
		code = exitcode.Worst(code, c)
	}
	if code != ExitOK {
		return Silent(code)
	}
	return nil
}

// listRow reads one session for its row. A session the selection leaves
// out by its header (another project, other dates) is not read further.
func listRow(name, formatName string, r session.Reader, sel selection.Filter) (Row, bool, error) {
	defer r.Close()
	m := r.Meta()
	chk := sel.Begin(m)
	if chk.Decided() && !chk.Kept() {
		return Row{}, false, nil
	}
	row := Row{Path: name, Format: formatName, ID: m.ID, Project: m.Cwd, Title: m.Title, start: m.Created.T}
	var last time.Time
	infoTitle, prompt := "", ""
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return row, false, invalidIn(name, err)
		}
		chk.Entry(e)
		if t := e.Time.T; !t.IsZero() {
			if row.start.IsZero() {
				row.start = t
			}
			if t.After(last) {
				last = t
			}
		}
		if e.IsMessage() {
			row.Messages++
			if prompt == "" && e.Message.Role == session.RoleUser {
				prompt = strings.Join(strings.Fields(transcript.PromptText(e.Message.Text())), " ")
			}
		}
		if e.Kind == session.KindSessionInfo && e.Title != "" {
			infoTitle = e.Title
		}
	}
	// the title an index shows (transcript.Title): the session's, its
	// last renaming, else the first prompt
	if row.Title == "" {
		row.Title = infoTitle
	}
	if row.Title == "" {
		if r := []rune(prompt); len(r) > 80 {
			prompt = string(r[:80]) + "…"
		}
		row.Title = prompt
	}
	if !row.start.IsZero() {
		row.Start = row.start.Local().Format(time.RFC3339)
		row.timed = true
		if last.After(row.start) {
			row.Seconds = int64(last.Sub(row.start) / time.Second)
		}
	}
	return row, chk.Kept(), nil
}

// printRow writes a row as a line of tab-separated columns (a field
// that is not recorded is "-"), or as one JSON object.
func printRow(w io.Writer, r Row, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return enc.Encode(r)
	}
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		// a tab or newline in a title would break the columns
		return printable(strings.Join(strings.Fields(s), " "))
	}
	start, dur := "-", "-"
	if r.timed {
		start = r.start.Local().Format("2006-01-02 15:04")
		dur = html.Duration(time.Duration(r.Seconds) * time.Second)
	}
	_, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\n", dash(r.ID), start, dur, dash(r.Project), r.Messages, dash(r.Title))
	return err
}

// listInput is one PATH list reads, with the layout forced on it.
type listInput struct {
	path   string
	forced format.Format
}

// listInputs are the PATHs list reads: those given, or standard input
// when it carries data, or the default store of the layout --format
// names; with none of these, every agent's default store that exists on
// this machine (pipeline.ExistingStores), each read as its layout.
func listInputs(env *Env, paths []string, formatName string) ([]listInput, error) {
	forced, err := pipeline.LookupFormat(formatName)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 && forced == nil && !env.stdinIsData() {
		stores, err := pipeline.ExistingStores()
		if err != nil {
			return nil, err
		}
		var out []listInput
		for _, s := range stores {
			out = append(out, listInput{s.Path, s.Format})
		}
		return out, nil
	}
	paths, err = pipeline.Resolve(paths, formatName, env.stdinIsData())
	if err != nil {
		return nil, err
	}
	out := make([]listInput, len(paths))
	for i, p := range paths {
		out[i] = listInput{p, forced}
	}
	return out, nil
}
