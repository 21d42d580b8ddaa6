package pipeline

import (
	"fmt"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// Distinct gives every session of the run an id no other has, so that two
// sessions with one id (two copies of a session in a store, a session and
// its export) become two sessions in any target, never one overwriting or
// merged into the other. The first session with an id keeps it; each
// later one gets an id derived from it (convert.DistinctID), which
// Job.Open hands to the writer and UniqueNames names its file after. It
// returns one line per renamed session, naming it, the session that kept
// the id, and the new id.
func (in *Input) Distinct() []string {
	ids := make([]string, len(in.Jobs))
	used := map[string]bool{}
	for i, j := range in.Jobs {
		ids[i] = SessionID(j)
		used[ids[i]] = true
	}
	first := map[string]int{}
	var notes []string
	for i, id := range ids {
		if id == "" {
			continue
		}
		k, seen := first[id]
		if !seen {
			first[id] = i
			continue
		}
		caps, _ := format.CapsOf(in.Jobs[i].Format)
		d := convert.DistinctID(id, 2, func(s string) bool { return used[s] }, caps.IDs)
		used[d] = true
		in.Jobs[i].ID = d
		notes = append(notes, fmt.Sprintf("%s: session %s has the same id as one in %s; it gets the id %s",
			in.Show(in.Jobs[i].Ref.Path), id, in.Show(in.Jobs[k].Ref.Path), d))
	}
	return notes
}

// Open opens the job's session, under the id the output gives it.
func (j Job) Open() (session.Reader, error) {
	r, err := j.Format.Open(j.Ref)
	if err != nil || j.ID == "" {
		return r, err
	}
	return &renamed{Reader: r, id: j.ID}, nil
}

// renamed is a session under another id. It hides the reader beneath, so
// no writer copies the source's lines (and its old id) verbatim.
type renamed struct {
	session.Reader
	id string
}

func (r *renamed) Meta() *session.Meta {
	m := r.Reader.Meta()
	m.ID = r.id
	return m
}
