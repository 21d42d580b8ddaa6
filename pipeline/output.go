package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// Target is what a command writes for each session.
type Target struct {
	Name string // for messages: the layout or exporter
	// File is set when each session is one file (a single-file layout, an
	// export); otherwise the target is a directory layout whose writer
	// makes its own files under a container directory.
	File bool
	Ext  string // a file target's extension
	// Derived is appended to the input path, less its extension, to name
	// the output written next to a single-session input without -o.
	Derived string
	// Units is how a directory layout's output is committed (its
	// format.Uniter); zero means every top-level entry is one session's
	// directory.
	Units format.Units
	// Place, for a file target whose program finds a session only at a
	// path of its own under its home (format.Placer), names that path
	// from the session: a directory output is then such a home.
	Place func(*session.Meta) string
}

// Plan says where a run's outputs go. The rule for -o (CLI.md):
//   - "-" is standard output (one session of a file target);
//   - a name ending in a path separator, or an existing directory, is
//     always a directory;
//   - otherwise, for a file target, a FILE when the input is one session
//     (a session file or directory, or the one --session picked) and a
//     directory when the input is a store, however many sessions it holds;
//   - for a directory layout, the container directory.
//
// A file target with a Place writes each session of a directory output
// at the path Place names under it, not as <id><ext>: the name is known
// once the session is open (Plan.Place).
//
// Without -o, a single-session input is written next to itself with a
// derived name, a store into the current directory, and standard input to
// standard output.
type Plan struct {
	ToStdout bool
	File     bool     // file target: one file per session
	Root     string   // the directory outputs land in
	Names    []string // file targets: each session's file name under Root
	Near     string   // where to stage (an existing directory, so renames stay atomic)
	Units    format.Units

	place  func(*session.Meta) string // Target.Place, for a directory output
	placed map[string]bool            // the names Place gave
	inputs []string                   // what is read, which no placed name may be
}

// PlanOutput applies the rule above to in and -o out.
func PlanOutput(in *Input, t Target, out string) (*Plan, error) {
	pl := &Plan{File: t.File}
	if !t.File {
		pl.Units = t.Units
		if len(pl.Units.Each) == 0 {
			pl.Units = format.SessionDirs
		}
	}
	if out == "-" || (out == "" && in.Stdin()) {
		if !t.File {
			return nil, exitcode.Usagef("%s is a directory layout: give -o DIR", t.Name)
		}
		if len(in.Jobs) != 1 {
			return nil, exitcode.Usagef("standard output holds one session (%d found); pick one with --session ID or give -o DIR", len(in.Jobs))
		}
		pl.ToStdout = true
		pl.Root, pl.Names, pl.Near = os.TempDir(), []string{"out" + t.Ext}, os.TempDir()
		return pl, nil
	}
	switch {
	case t.File && in.OneSession() && out != "" && !DirTarget(out):
		pl.Root, pl.Names = filepath.Dir(out), []string{filepath.Base(out)}
	case t.File && !in.Store && out == "":
		file := StripExt(in.Path) + t.Derived
		pl.Root, pl.Names = filepath.Dir(file), []string{filepath.Base(file)}
	case t.File:
		pl.Root, pl.Names = defaultDir(out), UniqueNames(in.Jobs, t.Ext)
		if t.Place != nil {
			pl.place, pl.placed = t.Place, map[string]bool{}
		}
	case out == "" && !in.Store:
		pl.Root = StripExt(in.Path) + t.Derived
	default:
		pl.Root = defaultDir(out)
	}
	pl.Near = nearestDir(pl.Root)
	if err := pl.overInput(in); err != nil {
		return nil, err
	}
	return pl, nil
}

// overInput refuses a plan that would write over what it reads: an output
// file that is an input file, or a directory output that is the input
// directory or inside it. With --force that replaced the input with its
// own conversion; without it, it wrote into the store being read.
func (pl *Plan) overInput(in *Input) error {
	if in.Stdin() {
		return nil
	}
	inputs := []string{in.Path}
	for _, j := range in.Jobs {
		inputs = append(inputs, j.Ref.Path)
	}
	if pl.place != nil {
		// a home folder: no output may be an input (Place checks each)
		// nor the home the input itself
		pl.inputs = inputs
	}
	if pl.File && pl.place == nil {
		for _, out := range pl.Paths() {
			for _, p := range inputs {
				if sameFile(out, p) {
					return exitcode.Usagef("-o %s is the input %s: the output would replace what is read; write it elsewhere", out, p)
				}
			}
		}
		return nil
	}
	if fi, err := os.Stat(in.Path); err == nil && fi.IsDir() && within(pl.Root, in.Path) {
		return exitcode.Usagef("-o %s is inside the input %s: the output would be written into what is read; write it elsewhere", pl.Root, in.Path)
	}
	return nil
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// within reports whether p is dir or lies under it, links resolved as far
// as p exists.
func within(p, dir string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	d, _ = filepath.Abs(d)
	p, _ = filepath.Abs(p)
	// Resolve the longest existing prefix of p (the output may not exist yet).
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = filepath.Join(r, rest)
			break
		}
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// Place names session i, whose meta is m, and returns where it is staged:
// for a plan with a Target.Place, the path Place gives under the stage;
// for any other plan, Staged. Two sessions placed alike are refused with
// atomicfile.ErrExists (the target cannot hold both), and a session placed
// on an input file with a usage error.
func (pl *Plan) Place(st *Stage, i int, m *session.Meta) (string, error) {
	if pl.place == nil {
		return pl.Staged(st, i), nil
	}
	name := filepath.FromSlash(pl.place(m))
	if !filepath.IsLocal(name) {
		return "", fmt.Errorf("session %s would be written at %s, outside %s", m.ID, name, pl.Root)
	}
	staged := filepath.Join(st.Dir, name)
	if pl.placed[name] {
		return "", fmt.Errorf("%s: %w", staged, atomicfile.ErrExists)
	}
	final := filepath.Join(pl.Root, name)
	for _, p := range pl.inputs {
		if sameFile(final, p) {
			return "", exitcode.Usagef("-o %s: session %s goes to %s, which is the input: the output would replace what is read; write it elsewhere", pl.Root, m.ID, final)
		}
	}
	pl.placed[name] = true
	pl.Names[i] = name
	return staged, nil
}

// Placed reports whether the plan names its files with a Target.Place.
func (pl *Plan) Placed() bool { return pl.place != nil }

// Paths is each session's output file (file targets).
func (pl *Plan) Paths() []string {
	out := make([]string, len(pl.Names))
	for i, n := range pl.Names {
		out[i] = filepath.Join(pl.Root, n)
	}
	return out
}

// DirTarget reports whether -o names a directory: a trailing separator (a
// directory not yet there) or an existing directory.
func DirTarget(out string) bool {
	if out == "" || out == "-" {
		return false
	}
	if strings.HasSuffix(out, string(filepath.Separator)) || strings.HasSuffix(out, "/") {
		return true
	}
	fi, err := os.Stat(out)
	return err == nil && fi.IsDir()
}

// Mirror is where p, found under the PATH argument root, goes inside the
// output directory out: at its path relative to root (its base name when
// root is p itself), so a store's layout is kept.
func Mirror(out, root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		rel = filepath.Base(p)
	}
	return filepath.Join(out, rel)
}

// OneSession reports whether the input is one session: the path itself,
// or the one session --session picked.
func (in *Input) OneSession() bool { return len(in.Jobs) == 1 && (!in.Store || in.picked) }

// UniqueNames names each session's file after its id (the one the output
// gives it: Job.ID when set), made safe for a file name; a name already
// taken gets -2, -3, ...
func UniqueNames(jobs []Job, ext string) []string {
	used := map[string]bool{}
	out := make([]string, len(jobs))
	for i, j := range jobs {
		id := j.ID
		if id == "" {
			id = SessionID(j)
		}
		base := fitName(SafeName(id), ext)
		name := base
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s-%d", base, k)
		}
		used[name] = true
		out[i] = name + ext
	}
	return out
}

// fitName shortens base so that base, a "-N" for a name taken twice and
// ext fit in the 255 bytes a file name may have: an id near that length
// validates (it can name a session directory) but would not name a file
// with an extension. The cut keeps the start and adds a hash of the whole,
// so two long ids with the same start still get different names.
func fitName(base, ext string) string {
	const nameMax, dup = 255, 8 // room for "-9999999"
	if len(base)+len(ext)+dup <= nameMax {
		return base
	}
	sum := sha256.Sum256([]byte(base))
	tag := "-" + hex.EncodeToString(sum[:6])
	return base[:nameMax-len(ext)-dup-len(tag)] + tag
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// SafeName turns a session id into a file name that stays inside its folder.
func SafeName(id string) string {
	n := strings.Trim(unsafeName.ReplaceAllString(id, "_"), "._")
	if n == "" {
		return "session"
	}
	return n
}

// StripExt drops a session file's extension (.jsonl, .json, .db); a
// directory keeps its whole name.
func StripExt(p string) string {
	p = strings.TrimSuffix(filepath.Clean(p), string(filepath.Separator))
	if ext := filepath.Ext(p); ext == ".jsonl" || ext == ".json" || ext == ".db" {
		p = strings.TrimSuffix(p, ext)
	}
	return p
}

func defaultDir(out string) string {
	if out == "" {
		return "."
	}
	return out
}

// nearestDir is the closest existing ancestor of p (p itself if it exists),
// so the stage shares its filesystem and renames stay atomic.
func nearestDir(p string) string {
	p = filepath.Clean(p)
	for {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p
		}
		parent := filepath.Dir(p)
		if parent == p {
			return p
		}
		p = parent
	}
}

// Final maps a staged path to where it will land.
func (pl *Plan) Final(st *Stage, staged string) string {
	rel, err := filepath.Rel(st.Dir, staged)
	if err != nil || !filepath.IsLocal(rel) {
		return staged
	}
	if pl.ToStdout {
		return "<stdout>"
	}
	return filepath.Join(pl.Root, rel)
}

// Finish moves the stage into place (or copies it to standard output) and
// prints each session's output to w.
func (pl *Plan) Finish(w, stdout io.Writer, st *Stage, written []string, force bool) error {
	if pl.ToStdout {
		return st.CopyTo(stdout, pl.Names[0])
	}
	if pl.File {
		written = nil
		for _, n := range pl.Names {
			// a session convert could not write (not-written) has no file
			if p := filepath.Join(st.Dir, n); exists(p) {
				written = append(written, p)
			}
		}
	}
	if err := st.Commit(pl.Root, force, pl.Units); err != nil {
		return err
	}
	for _, p := range written {
		fmt.Fprintln(w, pl.Final(st, p))
	}
	return nil
}

// Staged is where session i of a file target is written in the stage, or
// the stage itself for a directory layout.
func (pl *Plan) Staged(st *Stage, i int) string {
	if pl.File {
		return filepath.Join(st.Dir, pl.Names[i])
	}
	return st.Dir
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// Unstaged is err with every path inside the stage it names spelt as the
// output it stands for (Final): a writer names the file it writes, which
// is the staged one, and a user knows only the output they asked for.
func (pl *Plan) Unstaged(st *Stage, err error) error {
	if err == nil || st == nil {
		return err
	}
	dir := filepath.Clean(st.Dir) // as a path joined under it names it
	if !strings.Contains(err.Error(), dir) {
		return err
	}
	msg := err.Error()
	if pl.ToStdout && len(pl.Names) > 0 {
		msg = strings.ReplaceAll(msg, filepath.Join(dir, pl.Names[0]), "<stdout>")
	}
	root := strings.TrimSuffix(pl.Root, string(filepath.Separator)) + string(filepath.Separator)
	if pl.Root == "" || pl.Root == "." {
		root = ""
	}
	msg = strings.ReplaceAll(msg, dir+string(filepath.Separator), root)
	return &unstaged{msg: msg, err: err}
}

// unstaged is an error told in the outputs' names; it is still the error
// it was (errors.Is, errors.As).
type unstaged struct {
	msg string
	err error
}

func (u *unstaged) Error() string { return u.msg }
func (u *unstaged) Unwrap() error { return u.err }
