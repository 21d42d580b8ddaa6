package command

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/pipeline"
)

// DetectOptions are detect's flags.
type DetectOptions struct {
	// Format, when not auto, is the only layout looked for: a path that
	// holds another is a format-mismatch, as for every other command.
	Format string
	Paths  []string
}

// Detect prints the layout found at each path: "PATH: FORMAT [vVERSION]", one
// line per session file, session directory or store. Paths passed over are
// findings on standard error, as every command reports them; the exit code
// is 1 when a named path holds no known layout, 3 when one cannot be read.
func Detect(env *Env, o DetectOptions) error {
	forced, err := pipeline.LookupFormat(o.Format)
	if err != nil {
		return err
	}
	paths := o.Paths
	if len(paths) == 0 {
		if !env.stdinIsData() {
			return Usage("detect needs at least one PATH (or data on standard input)")
		}
		paths = []string{Stdin}
	}
	out := &errWriter{w: env.Stdout}
	code := ExitOK
	for _, p := range paths {
		if p == Stdin {
			s, br, sp, err := pipeline.ReadStdin(env.Stdin, forced)
			if err != nil {
				return err
			}
			if sp != nil {
				v, err := unitVersion(pipeline.Unit{Path: sp.Path, Format: sp.Format})
				sp.Remove()
				if err != nil {
					return invalidIn(pipeline.StdinName, err)
				}
				fmt.Fprintf(out, "%s: %s%s\n", pipeline.StdinName, sp.Format.Name(), v)
				continue
			}
			r, err := s.OpenReader(pipeline.StdinName, br)
			if err != nil {
				return invalidIn(pipeline.StdinName, err)
			}
			fmt.Fprintf(out, "%s: %s%s\n", pipeline.StdinName, nameOf(s), versionSuffix(r.Meta().Version))
			r.Close()
			continue
		}
		units, skips := pipeline.Walk(p, forced)
		for _, u := range units {
			v, err := unitVersion(u)
			if un := new(*format.Unsupported); errors.As(err, un) {
				// a version sesstool knows it cannot read is refused,
				// not named as the layout it grew out of
				fmt.Fprintf(env.Stderr, "sesstool: %v\n", err)
				code = exitcode.Worst(code, Code(err))
				continue
			}
			fmt.Fprintf(out, "%s: %s%s\n", u.Path, u.Format.Name(), v)
		}
		pipeline.PrintSkips(env.Stderr, skips)
		code = exitcode.Worst(code, pipeline.Code(skips))
		if out.err != nil {
			return IO(out.err)
		}
	}
	if out.err != nil {
		return IO(out.err)
	}
	if code != ExitOK {
		return Silent(code)
	}
	return nil
}

func nameOf(v any) string {
	if n, ok := v.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "?"
}

// versionSuffix spells a version after a layout's name. Some programs
// store their version with its "v" already (OpenCode 1.16: "v1.16.0"),
// which must not come out as "vv1.16.0".
func versionSuffix(v string) string {
	if v == "" {
		return ""
	}
	return " v" + strings.TrimPrefix(v, "v")
}

// unitVersion reports a single session's version; stores of many sessions
// have none of their own.
// The error is the store's when its sessions cannot be listed.
func unitVersion(u pipeline.Unit) (string, error) {
	refs, err := u.Format.Sessions(u.Path)
	if err != nil || len(refs) != 1 {
		return "", err
	}
	r, err := u.Format.Open(refs[0])
	if err != nil {
		return "", nil
	}
	defer r.Close()
	return versionSuffix(r.Meta().Version), nil
}

// errWriter keeps the first write error, so that a command printing many
// lines checks once (a full disk or closed pipe is exit 3, not success).
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}
