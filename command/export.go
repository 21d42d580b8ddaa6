package command

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/export/html"
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
	in, err := gather(env, "export", o.From, o.Paths, o.Session)
	if err != nil {
		return err
	}
	defer in.Close()
	pl, err := pipeline.PlanOutput(in, pipeline.Target{Name: ex.Name, File: true, Ext: ex.Ext, Derived: ex.Ext}, o.Out)
	if err != nil {
		return err
	}
	site := ex.Name == "html" && !pl.ToStdout && !in.OneSession()
	if site {
		if err := reserveIndex(pl, o.Force); err != nil {
			return err
		}
	}
	outs := pl.Paths()
	var index []html.IndexEntry
	for i, j := range in.Jobs {
		out := outs[i]
		if pl.ToStdout {
			out = Stdin
		}
		sum, err := exportOne(env, in.Show(j.Ref.Path), j, out, ex, o)
		if err != nil {
			return err
		}
		sum.Href = pl.Names[i]
		index = append(index, sum)
	}
	if site {
		return writeIndex(env, filepath.Join(pl.Root, indexName), index, o.Force)
	}
	return nil
}

// exportOne writes one session and says what a site's index shows of it.
func exportOne(env *Env, name string, j pipeline.Job, out string, ex registry.Exporter, o ExportOptions) (html.IndexEntry, error) {
	var sum html.IndexEntry
	r, err := j.Format.Open(j.Ref)
	if err != nil {
		return sum, Invalid("%s: %v", name, err)
	}
	s, err := readForExport(r)
	if err != nil {
		return sum, Invalid("%s: %v", name, err)
	}
	if o.Redact {
		rd := redact.New()
		rd.Session(s)
		fmt.Fprintf(env.Stderr, "%s: masked %d secret(s)\n", name, rd.Count)
	}
	t, err := transcript.New(s, o.Leaf)
	if err != nil {
		return sum, Usage("%s: %v", name, err)
	}
	sum = html.Summarize(t, "")
	if out == Stdin {
		if err := ex.Write(env.Stdout, t); err != nil {
			return sum, IO(fmt.Errorf("write standard output: %w", err))
		}
		return sum, nil
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return sum, IO(fmt.Errorf("create %s: %w", filepath.Dir(out), err))
	}
	f, err := atomicfile.Create(out, 0o644, o.Force)
	if err != nil {
		return sum, IO(err)
	}
	if err := ex.Write(f, t); err != nil {
		f.Abort()
		return sum, IO(fmt.Errorf("write %s: %w", out, err))
	}
	if err := f.Commit(); err != nil {
		return sum, IO(err)
	}
	fmt.Fprintln(env.Stdout, out)
	return sum, nil
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
