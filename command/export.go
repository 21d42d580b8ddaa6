package command

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/export/redact"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
)

// ExportOptions are export's flags.
type ExportOptions struct {
	Kind    string // an exporter's name (registry.Exporters)
	Out     string
	Leaf    string
	Redact  bool
	Force   bool
	Session string
	From    string
	Tools   string // how much of each tool call Markdown shows: full, summary, none ("" = full)
	Paths   []string
}

// Export renders sessions as HTML pages or Markdown transcripts. Inputs are
// found, validated and listed exactly as for convert, and outputs named by
// the same rule.
func Export(env *Env, o ExportOptions) error {
	ex, err := registry.LookupExporter(o.Kind)
	if err != nil {
		return Usage("%v", err)
	}
	if o.Tools != "" {
		if ex.WithTools == nil {
			return Usage("export %s has no --tools", ex.Name)
		}
		if ex.Write, err = ex.WithTools(o.Tools); err != nil {
			return Usage("%v", err)
		}
	}
	in, err := gather(env, "export", o.From, o.Paths, o.Session)
	if err != nil {
		return err
	}
	defer in.Close()
	pl, err := pipeline.PlanOutput(in, pipeline.Target{Name: ex.Name, File: true, Ext: ex.Ext, Derived: ex.Ext}, o.Out)
	if err != nil {
		return err
	}
	outs := pl.Paths()
	for i, j := range in.Jobs {
		out := outs[i]
		if pl.ToStdout {
			out = Stdin
		}
		if err := exportOne(env, in.Show(j.Ref.Path), j, out, ex, o); err != nil {
			return err
		}
	}
	return nil
}

func exportOne(env *Env, name string, j pipeline.Job, out string, ex registry.Exporter, o ExportOptions) error {
	r, err := j.Format.Open(j.Ref)
	if err != nil {
		return OpenFailed(name, err)
	}
	s, err := readForExport(r)
	if err != nil {
		return Invalid("%s: %v", name, err)
	}
	if o.Redact {
		rd, err := redact.New()
		if err != nil {
			return fmt.Errorf("--redact: %w", err)
		}
		rd.Session(s)
		fmt.Fprintf(env.Stderr, "%s: masked %d secret(s)\n", name, rd.Count)
	}
	t, err := transcript.New(s, o.Leaf)
	if err != nil {
		return Usage("%s: %v", name, err)
	}
	if out == Stdin {
		if err := ex.Write(env.Stdout, t); err != nil {
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
	if err := ex.Write(f, t); err != nil {
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
