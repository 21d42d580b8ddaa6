package command

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/export/markdown"
	"github.com/sesstool/sesstool/export/redact"
	"github.com/sesstool/sesstool/export/transcript"
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

// Export renders sessions as HTML pages or Markdown transcripts. Inputs are
// found, validated and listed exactly as for convert.
func Export(env *Env, o ExportOptions) error {
	ext := map[string]string{"html": ".html", "markdown": ".md"}[o.Kind]
	if ext == "" {
		return Usage("export needs html or markdown, not %q", o.Kind)
	}
	in, err := singleInput(env, "export", o.From, o.Paths, o.Session)
	if err != nil {
		return err
	}
	defer in.clean()
	outs, err := exportTargets(in, o, ext)
	if err != nil {
		return err
	}
	for i, j := range in.jobs {
		if err := exportOne(env, displayPath(in, j.ref.Path), j, outs[i], o); err != nil {
			return err
		}
	}
	return nil
}

// exportTargets picks each session's output: "-" for standard output, a
// file, or one file per session inside a directory.
func exportTargets(in *input, o ExportOptions, ext string) ([]string, error) {
	if len(in.jobs) == 1 {
		j := in.jobs[0]
		switch {
		case o.Out == "-" || (o.Out == "" && in.path == Stdin):
			return []string{"-"}, nil
		case isExistingDir(o.Out):
			return []string{filepath.Join(o.Out, safeName(sessionIDOf(j))+ext)}, nil
		case o.Out != "":
			return []string{o.Out}, nil
		case !in.store:
			return []string{stripExt(j.unit) + ext}, nil
		}
	}
	if o.Out == "-" {
		return nil, Usage("-o - needs a single session (%d found; pick one with --session ID)", len(in.jobs))
	}
	dir := defaultDir(o.Out)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, IO(fmt.Errorf("create %s: %w", dir, err))
	}
	outs := make([]string, len(in.jobs))
	used := map[string]bool{}
	for i, j := range in.jobs {
		base := safeName(sessionIDOf(j))
		name := base
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s-%d", base, k)
		}
		used[name] = true
		outs[i] = filepath.Join(dir, name+ext)
	}
	return outs, nil
}

func exportOne(env *Env, name string, j job, out string, o ExportOptions) error {
	r, err := j.src.Open(j.ref)
	if err != nil {
		return Invalid("%s: %v", name, err)
	}
	s, err := readForExport(r)
	if err != nil {
		return Invalid("%s: %v", name, err)
	}
	if o.Redact {
		rd := redact.New()
		rd.Session(s)
		fmt.Fprintf(env.Stderr, "%s: masked %d secret(s)\n", name, rd.Count)
	}
	t, err := transcript.New(s, o.Leaf)
	if err != nil {
		return Usage("%s: %v", name, err)
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
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return IO(fmt.Errorf("create %s: %w", filepath.Dir(out), err))
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

// readAheader is a reader that can decode entries ahead of Next on every
// core (the tree layout's reader).
type readAheader interface{ ReadAhead() }

// readForExport is session.ReadAll without the source bytes of each entry:
// exporters render from the model, and dropping Raw as entries arrive
// halves the memory a large session takes.
func readForExport(r session.Reader) (*session.Session, error) {
	defer r.Close()
	if ra, ok := r.(readAheader); ok {
		ra.ReadAhead() // the whole session is read: decode it on every core
	}
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
