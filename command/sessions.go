package command

import (
	"errors"
	"fmt"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/session"
)

// readEach opens every session at p, one at a time, and hands it to
// visit, which reads and closes it: the walk info and list share, which
// reads without validating first. A session that cannot be read is
// reported and the others still visited; the code is the worst outcome.
// Standard input is one session (or a spooled store), and its failure
// ends the run.
func readEach(env *Env, p string, forced format.Format, visit func(name, formatName string, r session.Reader) error) (int, error) {
	if p == Stdin {
		s, br, sp, err := pipeline.ReadStdin(env.Stdin, forced)
		if err != nil {
			return 0, err
		}
		if sp != nil {
			defer sp.Remove()
			refs, err := sp.Format.Sessions(sp.Path)
			if err != nil {
				return 0, invalidAt(sp.Path, pipeline.StdinName, err)
			}
			for _, ref := range refs {
				r, err := sp.Format.Open(ref)
				if err != nil {
					return 0, invalidAt(sp.Path, pipeline.StdinName, err)
				}
				if err := visit(pipeline.StdinName, sp.Format.Name(), r); err != nil {
					return 0, unstop(err)
				}
			}
			return ExitOK, nil
		}
		r, err := s.OpenReader(pipeline.StdinName, br)
		if err != nil {
			return 0, invalidIn(pipeline.StdinName, err)
		}
		return ExitOK, unstop(visit(pipeline.StdinName, nameOf(s), r))
	}
	units, skips := pipeline.Walk(p, forced)
	pipeline.PrintSkips(env.Stderr, skips)
	code := pipeline.Code(skips)
	fail := func(c int, err error) {
		fmt.Fprintf(env.Stderr, "sesstool: %v\n", err)
		code = exitcode.Worst(code, c)
	}
	for _, u := range units {
		u.Format = loadUnit(env, u)
		refs, err := u.Format.Sessions(u.Path)
		if err != nil {
			// a store refused as invalid (exit 1) is not an I/O failure
			fail(Code(err), err)
			continue
		}
		for _, ref := range refs {
			r, err := u.Format.Open(ref)
			if err != nil {
				fail(Code(OpenFailed(ref.Path, err)), OpenFailed(ref.Path, err))
				continue
			}
			name := ref.Path
			if ref.ID != "" {
				name += "#" + ref.ID
			}
			if err := visit(name, u.Format.Name(), r); err != nil {
				var st stopErr
				if errors.As(err, &st) {
					return code, st.error
				}
				fail(Code(err), err)
			}
		}
	}
	return code, nil
}

// stopErr is a visit's error that ends the walk (writing the output
// failed), not one session's.
type stopErr struct{ error }

func unstop(err error) error {
	var st stopErr
	if errors.As(err, &st) {
		return st.error
	}
	return err
}
