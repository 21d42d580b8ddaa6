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
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/selection"
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
	// AllRecords: Markdown shows the records the layout declares
	// bookkeeping too (the page has its own filter for them)
	AllRecords bool
	Select     selection.Filter
	Paths      []string
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
	defer tuneExportGC()()
	// A store exported as HTML is a site; one exported before has a
	// manifest, and then only the sessions that changed are read.
	var sr *siteRun
	var only pipeline.Keep
	if ex.Name == "html" {
		if sr, err = openSite(o); err != nil {
			return err
		}
		if sr.incremental() && len(o.Paths) == 1 && isDirPath(o.Paths[0]) {
			only = sr.only
		}
	}
	in, err := gatherWith(env, "export", o.From, o.Paths, o.Session, true, o.Select, only)
	if err != nil {
		return err
	}
	defer in.Close()
	// The outputs are planned and checked before the input is validated:
	// an existing output is refused at once, not after the whole read.
	pl, err := pipeline.PlanOutput(in, pipeline.Target{Name: ex.Name, File: true, Ext: ex.Ext, Derived: ex.Ext}, o.Out)
	if err != nil {
		return err
	}
	site := ex.Name == "html" && !pl.ToStdout && !in.OneSession()
	var keys []string
	ours := func(string) bool { return false }
	if site {
		if err := reserveIndex(pl, o.Force || sr.old != nil); err != nil {
			return err
		}
		keys = make([]string, len(in.Jobs))
		for i, j := range in.Jobs {
			keys[i] = sr.keyOf(j)
		}
		sr.name(pl, keys)
		if err := sr.checkFree(pl, o.Force); err != nil {
			return err
		}
		ours = func(name string) bool { return sr.ours[name] }
	} else if err := pl.CheckFree(o.Force); err != nil {
		return err
	}
	chk := startCheck(in, ex.Name == "html" && len(in.Jobs) == 1)
	if !chk.alongside {
		if err := chk.wait(); err != nil {
			return err
		}
	}
	outs := pl.Paths()
	if pl.ToStdout {
		outs[0] = Stdin
	}
	page := func(env *Env, i int) (html.IndexEntry, error) {
		j := in.Jobs[i]
		if site {
			// taken before the session is read: one that grows meanwhile
			// is seen as changed by the next run
			sr.fps[i] = sr.fingerprint(j)
		}
		oi := o
		oi.Force = o.Force || ours(pl.Names[i])
		sum, err := exportOne(env, in.Show(j.Ref.Path), j, outs[i], ex, oi, chk, site)
		sum.Href = pl.Names[i]
		return sum, err
	}
	workers := 1
	if site {
		sr.fps = make([]fingerprint, len(in.Jobs))
		workers = siteWorkers()
	}
	index, err := eachPage(env, len(in.Jobs), workers, page)
	if err != nil {
		return chk.first(err)
	}
	if err := chk.first(nil); err != nil {
		return err
	}
	pipeline.PrintSkips(env.Stderr, in.Grown())
	if site {
		return sr.finish(env, pl, keys, index, o.Force)
	}
	return nil
}

func isDirPath(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// exportOne writes one session and, for a site, says what its index shows
// of it (the summary walks the whole skeleton again: a single page skips
// it).
// An HTML page is rendered as the session is read (html.Stream), each
// entry masked as it comes when --redact.
func exportOne(env *Env, name string, j pipeline.Job, out string, ex registry.Exporter, o ExportOptions, chk *check, site bool) (html.IndexEntry, error) {
	var sum html.IndexEntry
	r, err := chk.open(j)
	if err != nil {
		return sum, OpenFailed(name, err)
	}
	trustSyntax(r)
	var rd *redact.Redactor
	if o.Redact {
		if rd, err = redact.New(); err != nil {
			r.Close()
			return sum, fmt.Errorf("--redact: %w", err)
		}
	}
	if !site {
		// a site's pages share the policy Export set for the whole run:
		// they are rendered at once, and setting it per page would have
		// one page put back what another still runs under
		defer tuneExportGC()()
	}
	if ex.Name == "markdown" {
		return sum, exportMarkdown(env, name, j, r, out, o, rd)
	}
	if ex.Name == "html" {
		defer r.Close()
		if ra, ok := r.(readAheader); ok {
			ra.ReadAhead()
		}
		meta := *r.Meta()
		if rd != nil {
			rd.Meta(&meta)
		}
		next := func() (*session.Entry, error) {
			e, err := r.Next()
			if e != nil {
				e.Raw = nil
				if rd != nil {
					rd.Entry(e)
				}
			}
			if err != nil {
				// nothing is written before the input validates
				if cerr := chk.wait(); cerr != nil {
					return nil, checkFailed{cerr}
				}
			}
			return e, err
		}
		err := emit(env, out, o.Force, func(w io.Writer) error {
			t, err := html.Stream(w, meta, next, o.Leaf)
			if err == nil {
				if site {
					sum = html.Summarize(t, "")
				}
				if rd != nil {
					fmt.Fprintf(env.Stderr, "%s: masked %d secret(s)\n", name, rd.Count)
				}
			}
			return err
		})
		var re html.ReadError
		var le html.LeafError
		var cf checkFailed
		switch {
		case errors.As(err, &cf):
			return sum, cf.err
		case errors.As(err, &re):
			return sum, invalidAt(j.Ref.Path, name, re.Err)
		case errors.As(err, &le):
			return sum, Usage("%s: %v", name, le.Err)
		}
		return sum, err
	}
	s, err := readForExport(r)
	if err != nil {
		return sum, invalidAt(j.Ref.Path, name, err)
	}
	if rd != nil {
		rd.Session(s)
		fmt.Fprintf(env.Stderr, "%s: masked %d secret(s)\n", name, rd.Count)
	}
	t, err := transcript.New(s, o.Leaf)
	if err != nil {
		return sum, Usage("%s: %v", name, err)
	}
	sum = html.Summarize(t, "")
	return sum, emit(env, out, o.Force, func(w io.Writer) error { return ex.Write(w, t) })
}

// exportMarkdown writes a transcript from two reads of the session (r is
// the first): a skeleton of every entry (the heading's facts, the path,
// which result answers which call), then the entries again, each written
// as soon as it and its calls' results have been read (markdown.Stream).
// With --redact the skeleton's strings are masked apart from the count,
// which is the entries' and the header's, as when the session was held.
func exportMarkdown(env *Env, name string, j pipeline.Job, r session.Reader, out string, o ExportOptions, rd *redact.Redactor) error {
	tools, err := markdown.ParseTools(o.Tools)
	if err != nil {
		r.Close()
		return Usage("%v", err)
	}
	var skelRd *redact.Redactor
	if rd != nil {
		c := *rd
		skelRd = &c
	}
	sk := transcript.Skeleton{Results: true}
	if ra, ok := r.(readAheader); ok {
		ra.ReadAhead()
	}
	err = session.Each(r, func(e *session.Entry) error {
		e.Raw = nil
		sk.Add(e)
		if skelRd != nil {
			skelRd.Entry(sk.Entries[len(sk.Entries)-1])
		}
		return nil
	})
	meta := *r.Meta()
	meta.Raw = nil
	r.Close()
	if err != nil {
		return invalidAt(j.Ref.Path, name, err)
	}
	if rd != nil {
		rd.Meta(&meta)
	}
	t, err := transcript.New(&session.Session{Meta: meta, Entries: sk.Entries}, o.Leaf)
	if err != nil {
		return Usage("%s: %v", name, err)
	}
	t.AllRecords = o.AllRecords
	again, err := j.Format.Open(j.Ref)
	if err != nil {
		return OpenFailed(name, err)
	}
	trustSyntax(again)
	defer again.Close()
	if ra, ok := again.(readAheader); ok {
		ra.ReadAhead()
	}
	next := func() (*session.Entry, error) {
		e, err := again.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, html.ReadError{Err: err}
		}
		e.Raw = nil
		if rd != nil {
			rd.Entry(e)
		}
		return e, nil
	}
	err = emit(env, out, o.Force, func(w io.Writer) error {
		if err := markdown.Stream(w, t, next, tools); err != nil {
			if errors.Is(err, markdown.ErrChanged) {
				return html.ReadError{Err: err}
			}
			return err
		}
		if rd != nil {
			fmt.Fprintf(env.Stderr, "%s: masked %d secret(s)\n", name, rd.Count)
		}
		return nil
	})
	var re html.ReadError
	if errors.As(err, &re) {
		return invalidAt(j.Ref.Path, name, re.Err)
	}
	return err
}

// emit writes an export to standard output or, atomically, to out, and
// prints out's name. An error of the reader or of --leaf, which a
// streaming write meets on its way, is handed back as it is; the caller
// classifies it.
func emit(env *Env, out string, force bool, write func(io.Writer) error) error {
	var re html.ReadError
	var le html.LeafError
	passOn := func(err error) bool { return errors.As(err, &re) || errors.As(err, &le) }
	if out == Stdin {
		if err := write(env.Stdout); err != nil {
			if passOn(err) {
				return err
			}
			return IO(fmt.Errorf("write standard output: %w", err))
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return IO(fmt.Errorf("create %s: %w", filepath.Dir(out), err))
	}
	f, err := atomicfile.Create(out, 0o644, force)
	if err != nil {
		return IO(err)
	}
	if err := write(f); err != nil {
		f.Abort()
		if passOn(err) {
			return err
		}
		return IO(fmt.Errorf("write %s: %w", out, err))
	}
	if err := f.Commit(); err != nil {
		return IO(err)
	}
	fmt.Fprintln(env.Stdout, out)
	return nil
}

// trustSyntax tells a reader that export validates every line of its
// input itself (before the export, or alongside it with nothing written
// unless it passes: Export's check), so the reader need not check each
// line's JSON syntax again, as convert's does not (trusting).
func trustSyntax(r session.Reader) {
	if t, ok := r.(interface{ TrustSyntax() }); ok {
		t.TrustSyntax()
	}
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
