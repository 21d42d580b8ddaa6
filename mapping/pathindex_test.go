package mapping

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/sesstool/sesstool/session"
)

// referencePath is ActivePath as first written, on session.Tree: PathIndex
// must pick exactly the same entries and count the same branches.
func referencePath(all []*session.Entry) ([]*session.Entry, int) {
	entries := Main(all)
	if len(entries) == 0 {
		return nil, 0
	}
	t := session.NewTree(entries)
	leaf := t.Leaf()
	if leaf.ID == "" || len(t.Children[""]) == len(entries) {
		return entries, 1
	}
	on := map[*session.Entry]bool{}
	for _, e := range t.Path(leaf.ID) {
		on[e] = true
	}
	for _, e := range entries {
		if p := t.ByID[e.ParentID]; p != nil && on[p] && !on[e] && attachment(e) && len(t.Children[e.ID]) == 0 {
			on[e] = true
		}
	}
	var path []*session.Entry
	branches := 1
	for _, e := range entries {
		if on[e] {
			path = append(path, e)
		} else if e.ID == "" || len(t.Children[e.ID]) == 0 {
			branches++
		}
	}
	return path, branches
}

// randomSession makes entries with few distinct ids, so duplicates, cycles,
// dangling parents, empty ids and sidechains all occur.
func randomSession(r *rand.Rand) []*session.Entry {
	n := r.IntN(12)
	id := func() string {
		if r.IntN(6) == 0 {
			return ""
		}
		return strconv.Itoa(r.IntN(n + 2))
	}
	var out []*session.Entry
	for range n {
		e := &session.Entry{ID: id(), ParentID: id(), Kind: session.KindMessage, Message: &session.Message{Role: session.RoleAssistant}}
		switch r.IntN(4) {
		case 0:
			e.Message.Role = session.RoleTool
		case 1:
			e.Kind, e.Message = session.KindCompaction, nil
		}
		if r.IntN(8) == 0 {
			e.Sidechain = "agent"
		}
		out = append(out, e)
	}
	return out
}

func TestPathIndexMatchesTree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		s := randomSession(r)
		want, wantB := referencePath(s)
		got, gotB := ActivePath(s)
		if !slices.Equal(got, want) || gotB != wantB {
			t.Fatalf("session %d: got %d entries, %d branches; want %d, %d", i, len(got), gotB, len(want), wantB)
		}
	}
}
