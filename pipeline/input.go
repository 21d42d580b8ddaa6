package pipeline

import (
	"fmt"
	"io"
	"os"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/report"
)

// Job is one session to convert or export.
type Job struct {
	Format format.Format
	Ref    format.Ref
	Unit   string // the path the session was found under (file, directory or store)
	// ID, when set, is the id the output gives the session instead of its
	// own: an earlier session of the run has that one (Input.Distinct).
	ID string
}

// Input is one resolved PATH argument and the sessions in it, read only
// once they validate.
type Input struct {
	Path  string // as given ("-" for standard input)
	Jobs  []Job
	Skips []Skip
	// Store is set when the path is not itself one session (a store or a
	// folder walked for sessions), even when it holds only one: outputs
	// then go into a directory, whatever the count.
	Store  bool
	picked bool // --session chose the sessions
	spool  *Spooled
	// deferred are the single-file units whose validation Check runs
	// (GatherOptions.Alongside).
	deferred []Unit
	log      io.Writer
	tee      *jsonl.Feed // Tee: filled by the validation of teePath
	teePath  string
}

// GatherOptions say how to read one PATH.
type GatherOptions struct {
	Forced  format.Format // nil: detect
	Session string        // keep only the session with this id
	Stdin   io.Reader
	// Hold is called before a store is read whole into memory (a
	// format.Loader), so the memory limit for streaming runs can be lifted.
	Hold func()
	// Log receives the skip findings and, for an input that does not
	// validate, its errors.
	Log io.Writer
	// Alongside leaves the validation of single-file sessions to
	// Input.Check, which the caller runs at the same time as it reads
	// them, so the file is read once by each instead of one after the
	// other. The caller must commit nothing unless Check returns nil.
	// A layout whose validator keeps state until the file's end
	// (Traits.AccumulatesWhenValidating) is validated here all the same.
	Alongside bool
	// Select, when set, keeps only the sessions it selects (SelectUnits);
	// none selected ends the run with exit 1.
	Select Keep
	// Selection spells the selection, for that message.
	Selection string
	// MayBeEmpty lets Select keep nothing: an incremental site export
	// whose sessions are all unchanged reads none.
	MayBeEmpty bool
}

// Gather finds, validates and lists the sessions at p. Every skip is
// printed; a named path that cannot be read, or holds nothing, ends the
// run with its exit code. An input that does not validate is refused
// (exit 1) with its findings, so a broken session is never converted or
// exported half-understood.
func Gather(p string, o GatherOptions) (*Input, error) {
	in := &Input{Path: p, log: o.Log}
	walkPath, forced := p, o.Forced
	if p == Stdin {
		sp, err := Spool(o.Stdin, o.Forced)
		if err != nil {
			return nil, err
		}
		in.spool = sp
		walkPath, forced = sp.Path, sp.Format
	}
	units, skips := Walk(walkPath, forced)
	for i := range skips {
		skips[i].Path = in.Show(skips[i].Path)
	}
	in.Skips = skips
	PrintSkips(o.Log, skips)
	if code := Code(skips); code != exitcode.OK {
		in.Close()
		return nil, exitcode.Silent(code)
	}
	var partial map[string]map[string]bool
	if o.Select != nil {
		units, partial = SelectUnits(units, o.Select)
		if len(units) == 0 && !o.MayBeEmpty {
			in.Close()
			return nil, exitcode.Invalidf("%s: no session matches the selection (%s)", p, o.Selection)
		}
	}
	// One session is the path itself: a session file, or a session
	// directory (its one ref has no id of its own); a store of one is
	// still a store.
	itself := len(units) == 1 && units[0].Path == walkPath && (isStream(units[0].Format) || in.spool != nil)
	if err := in.load(units, o); err != nil {
		in.Close()
		return nil, err
	}
	if partial != nil {
		in.Jobs = narrow(in.Jobs, partial)
	}
	itself = len(in.Jobs) == 1 && (itself || len(units) == 1 && units[0].Path == walkPath && in.Jobs[0].Ref.ID == "")
	in.Store = !itself
	if o.Session != "" {
		in.picked = true
		in.Jobs = filterSession(in.Jobs, o.Session)
		if len(in.Jobs) == 0 {
			in.Close()
			return nil, exitcode.Usagef("%s: no session with id %q (see 'sesstool info %s')", p, o.Session, p)
		}
	}
	return in, nil
}

// load validates every unit (a Loader validates and reads in one pass, and
// then serves the sessions from what it read) and lists the sessions.
func (in *Input) load(units []Unit, o GatherOptions) error {
	rep := &report.Report{MaxErrors: 20}
	for i := range units {
		units[i].Size = fileSize(units[i].Path)
	}
	for i, u := range units {
		opt := format.ValidateOptions{Size: u.Size}
		l, loader := u.Format.(format.Loader)
		acc := format.TraitsOf(u.Format).AccumulatesWhenValidating
		if o.Alongside && isStream(u.Format) && !loader && !acc {
			in.deferred = append(in.deferred, u)
			continue
		}
		if loader {
			if o.Hold != nil {
				o.Hold()
			}
			f, err := l.Load(u.Path, rep, opt)
			if err != nil {
				return exitcode.IOError(err)
			}
			units[i].Format = f
			continue
		}
		if err := u.Format.Validate(u.Path, rep, opt); err != nil {
			return exitcode.IOError(err)
		}
	}
	strays := Strays(rep)
	for i := range strays {
		strays[i].Path = in.Show(strays[i].Path)
	}
	in.Skips = append(in.Skips, strays...)
	PrintSkips(in.log, strays)
	if err := in.refuse(rep); err != nil {
		return err
	}
	for _, u := range units {
		refs, err := u.Format.Sessions(u.Path)
		if err != nil {
			return exitcode.IOError(err)
		}
		for _, ref := range refs {
			if ref.Path == u.Path {
				ref.Size = u.Size
			}
			in.Jobs = append(in.Jobs, Job{Format: u.Format, Ref: ref, Unit: u.Path})
		}
	}
	return nil
}

// refuse prints the errors in rep and returns the refusal, or nil when
// there are none.
func (in *Input) refuse(rep *report.Report) error {
	if rep.Errors() == 0 {
		return nil
	}
	for _, f := range rep.Findings() {
		if f.Severity == report.Error {
			f.Path = in.Show(f.Path)
			fmt.Fprintln(in.log, f.Text())
		}
	}
	return exitcode.Invalidf("%s does not validate (%d errors); nothing written", in.Path, rep.Errors())
}

// Check validates the sessions Gather left to it (GatherOptions.Alongside)
// and refuses them as Gather would have: the errors printed, exit 1. It
// may run on another goroutine while the sessions are read.
func (in *Input) Check() error {
	defer in.endTee()
	rep := &report.Report{MaxErrors: 20}
	for _, u := range in.deferred {
		if err := u.Format.Validate(u.Path, rep, format.ValidateOptions{Size: u.Size, Tee: in.teeFor(u)}); err != nil {
			return exitcode.IOError(err)
		}
	}
	return in.refuse(rep)
}

// Close removes a spooled copy of standard input.
func (in *Input) Close() {
	if in.spool != nil {
		in.spool.Remove()
	}
}

// Show names spooled standard input as <stdin> in messages.
func (in *Input) Show(p string) string {
	if in.spool == nil {
		return p
	}
	return in.spool.Show(p)
}

// Stdin reports whether the input is standard input.
func (in *Input) Stdin() bool { return in.Path == Stdin }

func filterSession(jobs []Job, id string) []Job {
	var out []Job
	for _, j := range jobs {
		if j.Ref.ID == id || SessionID(j) == id {
			out = append(out, j)
		}
	}
	return out
}

// SessionID opens a session only to read its id.
func SessionID(j Job) string {
	if j.Ref.ID != "" {
		return j.Ref.ID
	}
	r, err := j.Format.Open(j.Ref)
	if err != nil {
		return ""
	}
	defer r.Close()
	return r.Meta().ID
}

// fileSize is the size of the regular file at path, or 0 (a directory,
// or whatever cannot be read: its reader says so).
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	return fi.Size()
}

// narrow keeps, of the jobs of a store kept whole by SelectUnits, those
// it selected.
func narrow(jobs []Job, partial map[string]map[string]bool) []Job {
	var out []Job
	for _, j := range jobs {
		if set, ok := partial[j.Unit]; !ok || set[refKey(j.Ref)] {
			out = append(out, j)
		}
	}
	return out
}
