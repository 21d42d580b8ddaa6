package command

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/progress"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// sameLayout reports whether every session of in is of target's layout.
func sameLayout(in *pipeline.Input, target format.Format) bool {
	for _, j := range in.Jobs {
		if j.Format.Name() != target.Name() {
			return false
		}
	}
	return true
}

// Convert moves sessions from one layout to another: the source layout's
// reader into the neutral model, the target layout's writer out of it. It
// never pairs layouts directly.
func Convert(env *Env, o ConvertOptions) error {
	target, w, err := convertTarget(o.To)
	if err != nil {
		return err
	}
	given, err := writeOptions(target, o.Options)
	if err != nil {
		return err
	}
	in, err := gatherAlongside(env, "convert", o.From, o.Paths, o.Session, o.Select)
	if err != nil {
		return err
	}
	defer in.Close()
	for _, n := range in.Distinct() {
		fmt.Fprintf(env.Stderr, "sesstool: %s\n", n)
	}
	pl, err := pipeline.PlanOutput(in, targetOf(target), o.Out)
	if err != nil {
		return err
	}
	if err := pl.CheckFree(o.Force); err != nil {
		return err
	}
	st, err := pipeline.NewStage(pl.Near)
	if err != nil {
		return err
	}
	defer st.Remove()
	lost := &loss.Counter{}
	batch := map[string]bool{}
	for _, j := range in.Jobs {
		batch[pipeline.SessionID(j)] = true
		if j.ID != "" {
			batch[j.ID] = true
		}
	}
	// The input is validated while it is converted; nothing is committed
	// unless it validates, and its findings come before any error of the
	// conversion, as if it had been validated first.
	check := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = IO(fmt.Errorf("internal error in the validator (please report): %v", p))
			}
		}()
		return in.Check()
	}
	checked := make(chan error, 1)
	// Into another layout every entry is decoded, and the writer and the
	// output's validator keep state per entry: the input's validator,
	// which keeps its own, is done before they start, so the three never
	// add up (1 GB tree → flat: 52 MiB peak instead of 70-77, for about
	// 10% more wall time; the same at 100 MB). A copy into the same
	// layout keeps little and runs alongside.
	if sameLayout(in, target) {
		go func() { checked <- check() }()
	} else {
		if err := check(); err != nil {
			return err
		}
		checked <- nil
	}
	out := &report.Report{MaxErrors: 20}
	ix, _ := w.(format.Indexer)
	opt := format.WriteOptions{Options: given, Batch: batch, Home: ix != nil && pl.Placed()}
	var homed []*session.Meta // what the home's index records, once committed
	written, done, notWritten, err := writeAll(env, in, w, st, pl, opt, lost, out, &homed)
	if cerr := <-checked; cerr != nil {
		return cerr
	}
	if err != nil {
		return err
	}
	if err := checkOutput(env, target, st, pl, out, done); err != nil {
		return err
	}
	pipeline.PrintSkips(env.Stderr, in.Grown())
	if err := strictLoss(env, o, in, lost, notWritten); err != nil {
		return err
	}
	if err := pl.Finish(env.Stdout, env.Stdout, st, written, o.Force); err != nil {
		return err
	}
	// What a conversion lost is said once it has happened: a refused
	// commit (an existing output) converted nothing.
	if err := reportLoss(env, o, in, lost, notWritten); err != nil {
		return err
	}
	if opt.Home {
		if err := ix.Index(pl.Root, homed); err != nil {
			return IO(err)
		}
	}
	return nil
}

// targetOf says how convert's outputs are named for layout f.
func targetOf(f format.Format) pipeline.Target {
	_, file := f.(format.Stream)
	t := pipeline.Target{Name: f.Name(), File: file, Derived: "." + f.Name()}
	if file {
		t.Ext = registry.FileExt(f)
		t.Derived += t.Ext
	}
	if u, ok := f.(format.Uniter); ok {
		t.Units = u.Units()
	}
	if p, ok := f.(format.Placer); ok && file {
		t.Place = p.Place
	}
	return t
}

func convertTarget(name string) (format.Format, format.Writer, error) {
	if name == "" {
		return nil, nil, Usage("convert needs --to (one of %s)", strings.Join(registry.WriterNames(), ", "))
	}
	f, err := registry.Lookup(name)
	if err != nil {
		return nil, nil, Usage("%v", err)
	}
	w, ok := f.(format.Writer)
	if !ok {
		return nil, nil, Usage("sesstool cannot write %s", f.Name())
	}
	return f, w, nil
}

// writeOptions are the values of the layouts' own write options given
// (v) that the target's writer takes, so that a writer reads no option it
// does not declare. An option only other layouts take (--project with
// --to tree) is refused as a usage error before anything is read: passed
// over, it would leave the user believing it had an effect.
func writeOptions(target format.Format, v format.OptionValues) (format.OptionValues, error) {
	for _, o := range registry.WriteOptions() {
		if _, ok := v[o.Name]; ok && !slices.Contains(o.Layouts, target.Name()) {
			return nil, Usage("--%s applies only to --to %s, not %s", o.Name, strings.Join(o.Layouts, " or "), target.Name())
		}
	}
	return format.TraitsOf(target).Given(v), nil
}

// writeAll writes every session into the stage and returns, per session,
// the staged path of the session's own file or directory.
//
// A single-file layout's output is validated as it is written, into rep;
// done holds those staged files, which checkOutput need not read again.
func writeAll(env *Env, in *pipeline.Input, w format.Writer, st *pipeline.Stage, pl *pipeline.Plan, opt format.WriteOptions, lost *loss.Counter, rep *report.Report, homed *[]*session.Meta) (written []string, done map[string]bool, notWritten int, err error) {
	bar := progress.New(env.Stderr, len(in.Jobs), "convert", env.terminal())
	defer bar.Done()
	done = map[string]bool{}
	var sources []pipeline.Job // the session of each written path
	sw, stream := w.(format.Stream)
	for i, j := range in.Jobs {
		r, err := j.Open()
		if err != nil {
			return nil, nil, 0, OpenFailed(in.Show(j.Ref.Path), err)
		}
		if m := r.Meta(); inParent(m, j, w, opt) {
			// the parent, converted in this run, holds the run
			r.Close()
			fmt.Fprintf(env.Stderr, "%s: a sub-agent run of session %s: written inside it, not as a session of its own\n", in.Show(j.Ref.Path), m.Parent.SessionID)
			bar.Add()
			continue
		}
		o := opt
		o.Reopen = trusting(j.Open) // standard input is spooled to a file
		ar, err := adapt(r, w, o, lost)
		if err != nil {
			r.Close()
			return nil, nil, 0, invalidAt(j.Ref.Path, in.Show(j.Ref.Path), err)
		}
		r = ar
		meta := r.Meta()
		out, err := pl.Place(st, i, meta)
		if err != nil {
			r.Close()
			if errors.Is(err, atomicfile.ErrExists) {
				return nil, nil, 0, collision(in, st, pl, w, j, written, sources, err)
			}
			return nil, nil, 0, err
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			r.Close()
			return nil, nil, 0, IO(fmt.Errorf("create %s: %w", pl.Final(st, filepath.Dir(out)), err))
		}
		var paths []string
		switch {
		case copied(w, r):
			// The source's own lines, in its own layout: the input's
			// validation is the output's.
			if paths, err = w.Write(r, out, o); err == nil {
				done[filepath.Clean(out)] = true
			}
		case stream && !(opt.Home && runsInHome(w)):
			if err = writeChecked(sw, r, out, o, rep); err == nil {
				paths = []string{out}
				done[filepath.Clean(out)] = true
			}
		default:
			paths, err = w.Write(r, out, o)
		}
		r.Close()
		if errors.Is(err, atomicfile.ErrExists) {
			return nil, nil, 0, collision(in, st, pl, w, j, written, sources, err)
		}
		if refused(err) && in.Store {
			// A session of a store that the target keeps no such session
			// of is a finding, as a path the walk passes over is; the
			// store's other sessions are written. Named alone, it is refused.
			notWritten++
			if fi, serr := os.Lstat(out); serr == nil && fi.Mode().IsRegular() {
				os.Remove(out) // the session's own staged file, left empty by its refusal
			}
			sk := pipeline.Skip{Path: in.Show(j.Ref.Path), Rule: pipeline.RuleNotWritten, Message: pl.Unstaged(st, err).Error()}
			fmt.Fprintln(env.Stderr, sk.Finding().Text())
			bar.Add()
			continue
		}
		if err != nil {
			return nil, nil, 0, IO(fmt.Errorf("convert %s: %w", in.Show(j.Ref.Path), pl.Unstaged(st, err)))
		}
		if len(paths) > 0 {
			written = append(written, paths[0]) // the session's own file or directory
			sources = append(sources, j)
		}
		if opt.Home {
			*homed = append(*homed, meta) // only a session written is named in the home's index
		}
		bar.Add()
	}
	if notWritten > 0 && len(written) == 0 {
		return nil, nil, 0, Invalid("%s: no session of it can be written as %s", in.Show(in.Path), targetName(w))
	}
	if pl.Placed() && len(done) == len(in.Jobs) {
		// every file was validated as it was written; the home they make
		// need not be read again
		done[filepath.Clean(st.Dir)] = true
	}
	return written, done, notWritten, nil
}

// trusting opens the session again for a writer's second pass with the
// reader told that convert validates every line itself (the input is
// validated before or alongside the conversion, and nothing is committed
// unless it passes), so the reader need not check each line's syntax too.
func trusting(open func() (session.Reader, error)) func() (session.Reader, error) {
	return func() (session.Reader, error) {
		r, err := open()
		if t, ok := r.(interface{ TrustSyntax() }); ok && err == nil {
			t.TrustSyntax()
		}
		return r, err
	}
}

// collision is the error for a session whose output another session of the
// run has already taken. The stage starts empty, and sessions with one id
// get distinct ids (Input.Distinct), so this is two sessions the target
// names alike for another reason (ash names a session directory after its
// chat): the target cannot hold both, and neither is dropped.
func collision(in *pipeline.Input, st *pipeline.Stage, pl *pipeline.Plan, w format.Writer, j pipeline.Job, written []string, sources []pipeline.Job, err error) error {
	at := strings.TrimSuffix(err.Error(), ": "+atomicfile.ErrExists.Error())
	other := "another session"
	for i, p := range written {
		if p == at || strings.HasPrefix(p, at+string(filepath.Separator)) {
			other = in.Show(sources[i].Ref.Path)
			if sources[i].Ref.ID != "" {
				other += " (session " + sources[i].Ref.ID + ")"
			}
			break
		}
	}
	return Invalid("convert %s: its output %s is also that of %s, and %s cannot hold both; nothing written",
		in.Show(j.Ref.Path), pl.Final(st, at), other, targetName(w))
}

func targetName(w format.Writer) string {
	if f, ok := w.(format.Format); ok {
		return f.Name()
	}
	return "the target"
}

// adapt reshapes a session from another layout to what the target declares
// it holds (convert.For), so the writer spells only its own layout; what
// that loses is counted in lost. The writer gets the adapted session only:
// its Reopen is spent.
func adapt(r session.Reader, w format.Writer, o format.WriteOptions, lost *loss.Counter) (session.Reader, error) {
	f, ok := w.(format.Format)
	if !ok {
		return r, nil
	}
	return convert.For(f, r, o, lost)
}

// checkOutput validates what was written before it is moved into place: the
// target must pass `sesstool validate` every time.
// rep holds the findings of the files validated as they were written
// (done); every other file is validated here.
func checkOutput(env *Env, target format.Format, st *pipeline.Stage, pl *pipeline.Plan, rep *report.Report, done map[string]bool) error {
	units, skips := pipeline.Walk(st.Dir, target)
	for _, s := range skips {
		// Everything written must read back as the target.
		s.Named = true
		rep.Add(s.Finding())
	}
	for _, u := range units {
		if done[filepath.Clean(u.Path)] {
			continue
		}
		if err := u.Format.Validate(u.Path, rep, format.ValidateOptions{}); err != nil {
			return IO(err)
		}
	}
	if rep.Errors() == 0 {
		return nil
	}
	for _, f := range rep.Findings() {
		if f.Severity == report.Error {
			f.Path = pl.Final(st, f.Path)
			fmt.Fprintln(env.Stderr, f.Text())
		}
	}
	return Invalid("the converted output does not validate as %s (%d errors); nothing written. This is a bug in sesstool: please report it", target.Name(), rep.Errors())
}

// runsInHome reports whether w, writing into its home, puts a session's
// sub-agent runs in files beside the session's (Gemini CLI): the session is
// then written by its Write, and the home validated as a whole, its runs'
// files with it.
func runsInHome(w format.Writer) bool {
	f, ok := w.(format.Format)
	if !ok {
		return false
	}
	c, ok := format.CapsOf(f)
	return ok && c.SidechainsInHome
}

// copied reports whether w writes r as a copy of its source lines.
func copied(w format.Writer, r session.Reader) bool {
	c, ok := w.(format.Copier)
	return ok && c.Verbatim(r)
}

// lossReport is the --loss-report document.
type lossReport struct {
	Input    string      `json:"input"`
	From     string      `json:"from"`
	To       string      `json:"to"`
	Sessions int         `json:"sessions"`
	Lossless bool        `json:"lossless"`
	Losses   []loss.Item `json:"losses"`
}

func reportLoss(env *Env, o ConvertOptions, in *pipeline.Input, lost *loss.Counter, notWritten int) error {
	items := lost.Items()
	for _, it := range items {
		fmt.Fprintf(env.Stderr, "loss: %s\n", it)
	}
	if o.LossReport != "" {
		doc := lossReport{Input: in.Path, From: in.Jobs[0].Format.Name(), To: o.To, Sessions: len(in.Jobs) - notWritten, Lossless: len(items) == 0 && notWritten == 0, Losses: items}
		if doc.Losses == nil {
			doc.Losses = []loss.Item{}
		}
		b, _ := json.MarshalIndent(doc, "", "  ")
		if err := atomicfile.WriteFile(o.LossReport, append(b, '\n'), 0o644, true); err != nil {
			return IO(err)
		}
	}
	return nil
}

// strictLoss refuses, under --strict, a conversion that loses anything,
// before it is committed; the losses are listed with the refusal
// (and in --loss-report: what the conversion would have lost).
func strictLoss(env *Env, o ConvertOptions, in *pipeline.Input, lost *loss.Counter, notWritten int) error {
	items := lost.Items()
	if !o.Strict || (notWritten == 0 && len(items) == 0) {
		return nil
	}
	if err := reportLoss(env, o, in, lost, notWritten); err != nil {
		return err
	}
	if notWritten > 0 {
		return Invalid("--strict: %d sessions of the input cannot be written as %s (listed above); nothing written", notWritten, o.To)
	}
	return Invalid("--strict: converting to %s would lose %d kinds of data (listed above); nothing written", o.To, len(items))
}

// refused reports whether a writer refused a session its layout's program
// would keep no such session of (rather than failed to write it).
func refused(err error) bool {
	return errors.Is(err, format.ErrNothingToWrite) || errors.Is(err, format.ErrNoTime)
}

// inParent reports whether the session is a sub-agent's run that its
// parent, converted in the same run (opt.Batch), holds as a run, into a
// layout w that keeps runs inside their parent: it is written there, and
// would be written twice as a session of its own too. A layout that keeps
// such a session as a file of its own (its own layout: Gemini CLI writes
// the parent without its runs) writes it, as does one that keeps no runs.
func inParent(m *session.Meta, j pipeline.Job, w format.Writer, opt format.WriteOptions) bool {
	if m.Parent == nil || !m.Parent.Run || !opt.Batch[m.Parent.SessionID] || j.ID != "" {
		return false
	}
	f, _ := w.(format.Format)
	caps, ok := format.CapsOf(f)
	if !ok {
		return true // the model dump keeps every run
	}
	if !opt.Home {
		caps = caps.InFile()
	}
	return !caps.Owns(m.Origin) && (caps.Sidechains || caps.SidechainsInHome)
}
