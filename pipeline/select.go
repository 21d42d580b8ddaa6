package pipeline

import (
	"os"

	"github.com/sesstool/sesstool/format"
)

// Keep reports whether the selection (the flags --cwd, --since, --until,
// --match) keeps a session. It should keep one it cannot read to tell:
// the validation that follows then says what is wrong with it.
// u is the unit the walk found the session in.
type Keep func(u Unit, ref format.Ref) bool

// SelectUnits narrows the walk's units to the selected sessions before
// anything is validated, so a session left out is neither read whole nor
// judged. A unit all of whose sessions are kept stays whole (a store's
// strays are still named); a unit with none is dropped; a store of one
// file per session is replaced by the files of the selected ones, each a
// unit as if named; a store whose sessions share a file (opencode.db) is
// kept whole, and partial names it with the sessions kept of it
// (Ref.Path, NUL, Ref.ID), for the jobs to be narrowed once it is read.
func SelectUnits(units []Unit, keep Keep) (out []Unit, partial map[string]map[string]bool) {
	for _, u := range units {
		refs, err := u.Format.Sessions(u.Path)
		if err != nil {
			out = append(out, u) // its validation says why
			continue
		}
		var kept []format.Ref
		for _, ref := range refs {
			if keep(u, ref) {
				kept = append(kept, ref)
			}
		}
		switch {
		case len(kept) == len(refs):
			out = append(out, u)
			continue
		case len(kept) == 0:
			continue
		}
		own := true
		for _, r := range kept {
			if r.ID != "" || r.Path == u.Path || !regular(r.Path) {
				own = false
			}
		}
		if own {
			for _, r := range kept {
				sub, _ := Walk(r.Path, u.Format)
				out = append(out, sub...)
			}
			continue
		}
		if partial == nil {
			partial = map[string]map[string]bool{}
		}
		set := map[string]bool{}
		for _, r := range kept {
			set[refKey(r)] = true
		}
		partial[u.Path] = set
		out = append(out, u)
	}
	return out, partial
}

func refKey(r format.Ref) string { return r.Path + "\x00" + r.ID }

func regular(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
