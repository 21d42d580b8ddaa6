package command

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
)

// job is one session to convert or export.
type job struct {
	src  format.Format
	ref  format.Ref
	unit string // the path the session was found under (file, directory or store)
}

// input is a resolved PATH argument: the sessions in it, and whether it is a
// store of many.
type input struct {
	path  string // as given ("-" for standard input)
	jobs  []job
	store bool
	clean func() // removes a spooled copy of standard input
}

// singleInput resolves the one PATH that convert and export take (standard
// input or a default store when omitted) and gathers its sessions.
func singleInput(env *Env, cmd, from string, paths []string, sessionID string) (*input, error) {
	forced, err := lookupFormat(from)
	if err != nil {
		return nil, err
	}
	paths, err = resolveInputs(env, paths, from)
	if err != nil {
		return nil, err
	}
	if len(paths) != 1 {
		return nil, Usage("%s takes one PATH, got %d", cmd, len(paths))
	}
	return gatherInput(env, paths[0], forced, sessionID)
}

// gatherInput finds, validates and lists the sessions at p. An input that
// does not validate is refused (exit 1) with its findings on stderr, so a
// broken session is never converted or exported half-understood.
func gatherInput(env *Env, p string, forced format.Format, sessionID string) (*input, error) {
	in := &input{path: p, clean: func() {}}
	if p == Stdin {
		spooled, f, err := spoolStdin(env, forced)
		if err != nil {
			return nil, err
		}
		in.clean = func() { os.RemoveAll(filepath.Dir(spooled)) }
		p, forced = spooled, f
	}
	units, skipped, err := registry.Walk(p, forced)
	if err != nil {
		in.clean()
		return nil, IO(err)
	}
	if len(units) == 0 {
		in.clean()
		if len(skipped) > 0 {
			return nil, Invalid("%s: %s", displayPath(in, skipped[0].Path), skipped[0].Reason)
		}
		return nil, Invalid("%s: no sessions found", in.path)
	}
	if err := refuseInvalid(env, in, units); err != nil {
		in.clean()
		return nil, err
	}
	for _, u := range units {
		refs, err := u.Format.Sessions(u.Path)
		if err != nil {
			in.clean()
			return nil, IO(err)
		}
		for _, ref := range refs {
			in.jobs = append(in.jobs, job{src: u.Format, ref: ref, unit: u.Path})
		}
	}
	in.store = len(units) > 1 || len(in.jobs) > 1
	if sessionID != "" {
		in.jobs = filterSession(in.jobs, sessionID)
		if len(in.jobs) == 0 {
			in.clean()
			return nil, Usage("%s: no session with id %q (see 'sesstool info %s')", in.path, sessionID, in.path)
		}
	}
	return in, nil
}

func refuseInvalid(env *Env, in *input, units []registry.Unit) error {
	rep := &report.Report{MaxErrors: 20}
	for i, u := range units {
		if l, ok := u.Format.(format.Loader); ok {
			// validated and read in one pass; the sessions come from it
			if env.HoldInput != nil {
				env.HoldInput()
			}
			f, err := l.Load(u.Path, rep, format.ValidateOptions{})
			if err != nil {
				return IO(err)
			}
			units[i].Format = f
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
			f.Path = displayPath(in, f.Path)
			fmt.Fprintln(env.Stderr, f.Text())
		}
	}
	return Invalid("%s does not validate (%d errors); nothing written", in.path, rep.Errors())
}

func filterSession(jobs []job, id string) []job {
	var out []job
	for _, j := range jobs {
		if j.ref.ID == id || sessionIDOf(j) == id {
			out = append(out, j)
		}
	}
	return out
}

// sessionIDOf opens a session only to read its id.
func sessionIDOf(j job) string {
	if j.ref.ID != "" {
		return j.ref.ID
	}
	r, err := j.src.Open(j.ref)
	if err != nil {
		return ""
	}
	defer r.Close()
	return r.Meta().ID
}

// spoolStdin copies standard input to a private temporary file, because a
// session is read twice (validated, then converted).
func spoolStdin(env *Env, forced format.Format) (string, format.Format, error) {
	s, br, err := stdinFormat(env.Stdin, forced)
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp("", "sesstool-stdin-*")
	if err != nil {
		return "", nil, IO(fmt.Errorf("spool standard input: %w", err))
	}
	p := filepath.Join(dir, "stdin")
	f, err := os.Create(p)
	if err == nil {
		_, err = io.Copy(f, br)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, IO(fmt.Errorf("spool standard input: %w", err))
	}
	return p, s.(format.Format), nil
}

// displayPath names spooled standard input as <stdin> in messages.
func displayPath(in *input, p string) string {
	if in.path == Stdin {
		if strings.HasSuffix(p, string(filepath.Separator)+"stdin") {
			return "<stdin>"
		}
	}
	return p
}
