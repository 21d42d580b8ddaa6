package command

import (
	"bufio"
	"github.com/sesstool/sesstool/format"
	"io"

	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/selection"
)

// Stdin is the path that means standard input.
const Stdin = pipeline.Stdin

// Env is what commands read from and write to; tests swap it.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// StdinIsData reports whether standard input is a pipe or a redirected
	// file (not a terminal, not /dev/null, not closed).
	StdinIsData func() bool
	// StderrIsTerminal reports whether progress bars may be drawn.
	StderrIsTerminal func() bool
	// Color reports whether standard output may be coloured.
	Color bool
	// HoldInput, when set, is called before a command reads its whole
	// input into memory (a store a format.Loader reads at once), so the
	// memory limit set for streaming commands can be lifted.
	HoldInput func()
}

func (env *Env) stdinIsData() bool { return env.StdinIsData != nil && env.StdinIsData() }

func (env *Env) terminal() bool { return env.StderrIsTerminal != nil && env.StderrIsTerminal() }

// inputs resolves the PATH arguments and the --format/--from value as every
// command does (CLI.md: an omitted PATH is standard input when it carries
// data, else the layout's default store).
func inputs(env *Env, paths []string, formatName string) ([]string, format.Format, error) {
	forced, err := pipeline.LookupFormat(formatName)
	if err != nil {
		return nil, nil, err
	}
	paths, err = pipeline.Resolve(paths, formatName, env.stdinIsData())
	return paths, forced, err
}

// gatherAlongside resolves the one PATH that convert and export take and
// reads its sessions through the pipeline, leaving the validation of
// single-file sessions to Input.Check, run while they are read (see
// pipeline.GatherOptions).
func gatherAlongside(env *Env, cmd, from string, paths []string, sessionID string, sel selection.Filter) (*pipeline.Input, error) {
	return gatherWith(env, cmd, from, paths, sessionID, true, sel, nil)
}

// gatherWith reads the one PATH. only, when set, is asked after the
// selection about every session it keeps, and may leave out more, down
// to none (an incremental site export: the unchanged sessions).
func gatherWith(env *Env, cmd, from string, paths []string, sessionID string, alongside bool, sel selection.Filter, only pipeline.Keep) (*pipeline.Input, error) {
	forced, err := pipeline.LookupFormat(from)
	if err != nil {
		return nil, err
	}
	var in io.Reader = env.Stdin
	if in == nil {
		in = eof{}
	}
	stdin := bufio.NewReaderSize(in, 1<<16) // peeked by ResolveOne, then spooled

	paths, err = pipeline.ResolveOne(paths, from, env.stdinIsData(), stdin)
	if err != nil {
		return nil, err
	}
	if len(paths) != 1 {
		return nil, Usage("%s takes one PATH, got %d", cmd, len(paths))
	}
	o := pipeline.GatherOptions{
		Forced: forced, Session: sessionID, Stdin: stdin, Hold: env.HoldInput, Log: env.Stderr,
		Alongside: alongside,
	}
	if sel.Active() {
		o.Select, o.Selection = keeper(sel), sel.String()
	}
	if only != nil {
		if k := o.Select; k != nil {
			o.Select = func(u pipeline.Unit, ref format.Ref) bool { return k(u, ref) && only(u, ref) }
		} else {
			o.Select = only
		}
		o.MayBeEmpty = true
	}
	return pipeline.Gather(paths[0], o)
}

// keeper is the selection as the pipeline asks it. A session that cannot
// be read to tell is kept: its validation then says why.
func keeper(sel selection.Filter) pipeline.Keep {
	return func(u pipeline.Unit, ref format.Ref) bool {
		r, err := u.Format.Open(ref)
		if err != nil {
			return true
		}
		ok, err := sel.Keep(r)
		return ok || err != nil
	}
}

// eof is an empty standard input.
type eof struct{}

func (eof) Read([]byte) (int, error) { return 0, io.EOF }
