package command

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/export/markdown"
	"github.com/sesstool/sesstool/export/redact"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// ExportOptions are export's flags.
type ExportOptions struct {
	Kind    string // html or markdown
	Out     string
	Leaf    string
	Redact  bool
	Force   bool
	Session string
	From    string
	Paths   []string
}

// exportJob is one session to render.
type exportJob struct {
	name    string // for messages: the file or ref it came from
	derived string // output path next to the input, "" when none (stdin, a session inside a store)
	base    string // output file name stem inside -o DIR
	open    func() (session.Reader, error)
}

// Export renders sessions as HTML pages or Markdown transcripts.
func Export(env *Env, o ExportOptions) error {
	ext := map[string]string{"html": ".html", "markdown": ".md"}[o.Kind]
	if ext == "" {
		return Usage("export needs html or markdown, not %q", o.Kind)
	}
	forced, err := lookupFormat(o.From)
	if err != nil {
		return err
	}
	paths, err := resolveInputs(env, o.Paths, o.From)
	if err != nil {
		return err
	}
	if len(paths) != 1 {
		return Usage("export takes one PATH, not %d", len(paths))
	}
	var jobs []exportJob
	if paths[0] == Stdin {
		jobs, err = stdinJobs(env, forced)
	} else {
		jobs, err = pathJobs(paths[0], forced, o.Session)
	}
	if err != nil {
		return err
	}
	if len(jobs) == 0 {
		if o.Session != "" {
			return Usage("--session %s: no such session in %s", o.Session, paths[0])
		}
		return Invalid("%s: no sessions found", paths[0])
	}
	outs, err := exportTargets(jobs, o, ext)
	if err != nil {
		return err
	}
	for i, j := range jobs {
		if err := exportOne(env, j, outs[i], o); err != nil {
			return err
		}
	}
	return nil
}

// stdinJobs reads standard input once (it must be validated before it is
// rendered, and a pipe cannot be read twice).
func stdinJobs(env *Env, forced format.Format) ([]exportJob, error) {
	s, br, err := stdinFormat(env.Stdin, forced)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, IO(fmt.Errorf("read standard input: %w", err))
	}
	rep := &report.Report{}
	if err := s.ValidateReader("<stdin>", bytes.NewReader(data), rep, format.ValidateOptions{}); err != nil {
		return nil, IO(fmt.Errorf("read standard input: %w", err))
	}
	if err := refuseInvalid("<stdin>", rep); err != nil {
		return nil, err
	}
	return []exportJob{{name: "<stdin>", base: "session", open: func() (session.Reader, error) {
		return s.OpenReader("<stdin>", bytes.NewReader(data))
	}}}, nil
}

func pathJobs(p string, forced format.Format, only string) ([]exportJob, error) {
	units, skipped, err := registry.Walk(p, forced)
	if err != nil {
		return nil, IO(err)
	}
	if len(units) == 0 && len(skipped) > 0 {
		return nil, Invalid("%s: %s", skipped[0].Path, skipped[0].Reason)
	}
	var jobs []exportJob
	for _, u := range units {
		rep := &report.Report{}
		if err := u.Format.Validate(u.Path, rep, format.ValidateOptions{}); err != nil {
			return nil, IO(err)
		}
		if err := refuseInvalid(u.Path, rep); err != nil {
			return nil, err
		}
		refs, err := u.Format.Sessions(u.Path)
		if err != nil {
			return nil, IO(fmt.Errorf("read %s: %w", u.Path, err))
		}
		for _, ref := range refs {
			if only != "" && ref.ID != "" && ref.ID != only {
				continue
			}
			j := exportJob{name: ref.Path, base: stem(ref.Path), open: openRef(u.Format, ref)}
			if ref.ID != "" {
				j.name += "#" + ref.ID
				j.base = ref.ID
			}
			if ref.ID == "" || len(refs) == 1 {
				j.derived = strings.TrimSuffix(ref.Path, string(filepath.Separator))
			}
			jobs = append(jobs, j)
		}
	}
	if only != "" {
		// refs named only by path: the id is known once the session is open
		var kept []exportJob
		for _, j := range jobs {
			r, err := j.open()
			if err != nil {
				return nil, Invalid("%s: %v", j.name, err)
			}
			id := r.Meta().ID
			r.Close()
			if id == only {
				kept = append(kept, j)
			}
		}
		jobs = kept
	}
	return jobs, nil
}

func openRef(f format.Format, ref format.Ref) func() (session.Reader, error) {
	return func() (session.Reader, error) { return f.Open(ref) }
}

// refuseInvalid turns validation errors into exit 1: rendering a broken
// session would silently show something other than what is on disk.
func refuseInvalid(name string, rep *report.Report) error {
	if rep.Errors() == 0 {
		return nil
	}
	first := ""
	for _, f := range rep.Findings() {
		if f.Severity == report.Error {
			first = f.Text()
			break
		}
	}
	return Invalid("%s does not validate (%d errors; first: %s); see 'sesstool validate'", name, rep.Errors(), first)
}

// exportTargets picks each job's output: "-" for standard output, a file,
// or one file per session inside a directory.
func exportTargets(jobs []exportJob, o ExportOptions, ext string) ([]string, error) {
	outs := make([]string, len(jobs))
	if len(jobs) == 1 {
		j := jobs[0]
		switch {
		case o.Out == "-":
			outs[0] = "-"
		case o.Out != "" && isDir(o.Out):
			outs[0] = filepath.Join(o.Out, safeName(j.base)+ext)
		case o.Out != "":
			outs[0] = o.Out
		case j.name == "<stdin>":
			outs[0] = "-"
		case j.derived != "" && isDir(j.derived):
			outs[0] = j.derived + ext
		case j.derived != "":
			outs[0] = strings.TrimSuffix(j.derived, filepath.Ext(j.derived)) + ext
		default:
			outs[0] = safeName(j.base) + ext
		}
		return outs, nil
	}
	if o.Out == "-" {
		return nil, Usage("-o - needs a single session (%d found; pick one with --session ID)", len(jobs))
	}
	dir := o.Out
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, IO(fmt.Errorf("create %s: %w", dir, err))
	}
	used := map[string]bool{}
	for i, j := range jobs {
		name := safeName(j.base)
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s-%d", safeName(j.base), k)
		}
		used[name] = true
		outs[i] = filepath.Join(dir, name+ext)
	}
	return outs, nil
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// safeName makes a session id or file stem a plain file name: ids from the
// input never become paths outside -o.
func safeName(s string) string {
	s = unsafeChars.ReplaceAllString(s, "_")
	s = strings.TrimLeft(s, ".")
	if s == "" {
		s = "session"
	}
	if len(s) > 120 {
		s = s[:120]
	}
	return s
}

func stem(p string) string {
	b := filepath.Base(strings.TrimSuffix(p, string(filepath.Separator)))
	return strings.TrimSuffix(b, filepath.Ext(b))
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func exportOne(env *Env, j exportJob, out string, o ExportOptions) error {
	r, err := j.open()
	if err != nil {
		return Invalid("%s: %v", j.name, err)
	}
	s, err := readForExport(r)
	if err != nil {
		return Invalid("%s: %v", j.name, err)
	}
	if o.Redact {
		rd := redact.New()
		rd.Session(s)
		fmt.Fprintf(env.Stderr, "%s: masked %d secret(s)\n", j.name, rd.Count)
	}
	t, err := transcript.New(s, o.Leaf)
	if err != nil {
		return Usage("%s: %v", j.name, err)
	}
	render := html.Write
	if o.Kind == "markdown" {
		render = markdown.Write
	}
	if out == "-" {
		if err := render(env.Stdout, t); err != nil {
			return IO(fmt.Errorf("write standard output: %w", err))
		}
		return nil
	}
	f, err := atomicfile.Create(out, 0o644, o.Force)
	if err != nil {
		return IO(err)
	}
	if err := render(f, t); err != nil {
		f.Abort()
		return IO(fmt.Errorf("write %s: %w", out, err))
	}
	if err := f.Commit(); err != nil {
		return IO(err)
	}
	fmt.Fprintln(env.Stdout, out)
	return nil
}

// readForExport is session.ReadAll without the source bytes of each entry:
// exporters render from the model, and dropping Raw as entries arrive
// halves the memory a large session takes.
func readForExport(r session.Reader) (*session.Session, error) {
	defer r.Close()
	s := &session.Session{Meta: *r.Meta()}
	s.Meta.Raw = nil
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		if err != nil {
			return s, err
		}
		e.Raw = nil
		s.Entries = append(s.Entries, e)
	}
}
