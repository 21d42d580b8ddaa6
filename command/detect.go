package command

import (
	"fmt"

	"github.com/sesstool/sesstool/registry"
)

// Detect prints the layout found at each path: "PATH: FORMAT [vVERSION]", one
// line per session file, session directory or store. It exits 1 when some
// path holds no known layout.
func Detect(env *Env, paths []string) error {
	if len(paths) == 0 {
		if env.StdinIsData == nil || !env.StdinIsData() {
			return Usage("detect needs at least one PATH (or data on standard input)")
		}
		paths = []string{Stdin}
	}
	unknown := 0
	for _, p := range paths {
		if p == Stdin {
			s, br, err := stdinFormat(env.Stdin, nil)
			if err != nil {
				return err
			}
			r, err := s.OpenReader("<stdin>", br)
			if err != nil {
				return Invalid("<stdin>: %v", err)
			}
			fmt.Fprintf(env.Stdout, "<stdin>: %s%s\n", nameOf(s), versionSuffix(r.Meta().Version))
			r.Close()
			continue
		}
		units, skipped, err := registry.Walk(p, nil)
		if err != nil {
			return IO(err)
		}
		for _, u := range units {
			fmt.Fprintf(env.Stdout, "%s: %s%s\n", u.Path, u.Format.Name(), unitVersion(u))
		}
		for _, s := range skipped {
			fmt.Fprintf(env.Stdout, "%s: unknown (%s)\n", s.Path, s.Reason)
			unknown++
		}
		if len(units) == 0 && len(skipped) == 0 {
			fmt.Fprintf(env.Stdout, "%s: unknown (no sessions found)\n", p)
			unknown++
		}
	}
	if unknown > 0 {
		return Silent(ExitInvalid)
	}
	return nil
}

func nameOf(v any) string {
	if n, ok := v.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "?"
}

func versionSuffix(v string) string {
	if v == "" {
		return ""
	}
	return " v" + v
}

// unitVersion reports a single session's version; stores of many sessions
// have none of their own.
func unitVersion(u registry.Unit) string {
	refs, err := u.Format.Sessions(u.Path)
	if err != nil || len(refs) != 1 {
		return ""
	}
	r, err := u.Format.Open(refs[0])
	if err != nil {
		return ""
	}
	defer r.Close()
	return versionSuffix(r.Meta().Version)
}
