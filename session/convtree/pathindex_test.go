package convtree

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/sesstool/sesstool/session"
)

// referencePath is the definition of PathIndex spelled plainly, with
// maps of ids: PathIndex must pick exactly the same entries and count the
// same branches.
func referencePath(all []*session.Entry, messageLinks bool) ([]*session.Entry, int) {
	var chain Chain
	linked := make([]string, len(all))
	for i, e := range all {
		linked[i] = e.ParentID
		if messageLinks {
			linked[i] = chain.Parent(e)
		}
	}
	byID := map[string]int{}
	var main []int
	for i, e := range all {
		if e.Sidechain == "" {
			main = append(main, i)
			if e.ID != "" {
				byID[e.ID] = i
			}
		}
	}
	if len(main) == 0 {
		return nil, 0
	}
	parent := map[int]int{}
	for _, i := range main {
		if j, ok := byID[linked[i]]; ok && linked[i] != "" && j != i {
			parent[i] = j
		}
	}
	if len(main) > 1 && len(parent) == 0 {
		for k := 1; k < len(main); k++ {
			parent[main[k]] = main[k-1]
		}
	}
	on := map[int]bool{}
	for i, ok := main[len(main)-1], true; ok && !on[i]; i, ok = parent[i] {
		on[i] = true
	}
	hasChild := map[int]bool{}
	for _, j := range parent {
		hasChild[j] = true
	}
	var path []*session.Entry
	branches := 1
	for _, i := range main {
		if on[i] {
			path = append(path, all[i])
		} else if !hasChild[i] {
			branches++
		}
	}
	return path, branches
}

// randomSession makes entries with few distinct ids, so duplicates, cycles,
// dangling parents, empty ids and sidechains all occur.
func randomSession(r *rand.Rand) (entries []*session.Entry, messageLinks bool) {
	n := r.IntN(12)
	id := func() string {
		if r.IntN(6) == 0 {
			return ""
		}
		return strconv.Itoa(r.IntN(n + 2))
	}
	ash := r.IntN(2) == 0
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
	return out, ash
}

func TestPathIndexMatchesTree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		s, links := randomSession(r)
		want, wantB := referencePath(s, links)
		got, gotB := ActivePath(s, links)
		if !slices.Equal(got, want) || gotB != wantB {
			t.Fatalf("session %d: got %d entries, %d branches; want %d, %d", i, len(got), gotB, len(want), wantB)
		}
	}
}

// TestConversation: the in-memory view gives the same leaf, path and
// branches as PathIndex, parents for the page's tree, and paths to other
// leaves.
func TestConversation(t *testing.T) {
	e := func(id, parent, side string) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Sidechain: side, Message: &session.Message{Role: session.RoleUser}}
	}
	ids := func(es []*session.Entry) string {
		var s []string
		for _, x := range es {
			s = append(s, x.ID)
		}
		return join(s)
	}
	for _, c := range []struct {
		name     string
		entries  []*session.Entry
		leaf     string
		path     string
		branches int
	}{
		{"empty", nil, "", "", 0},
		{"linear", []*session.Entry{e("a", "", ""), e("b", "a", ""), e("c", "b", "")}, "c", "a b c", 1},
		// a sub-agent run written last is neither the leaf nor a branch
		{"sidechain last", []*session.Entry{e("a", "", ""), e("b", "a", ""), e("s1", "b", "run"), e("s2", "s1", "run")}, "b", "a b", 1},
		{"fork", []*session.Entry{e("a", "", ""), e("b", "a", ""), e("c", "a", "")}, "c", "a c", 2},
		// no entry names another: one line in source order
		{"no links", []*session.Entry{e("a", "", ""), e("b", "", ""), e("c", "", "")}, "c", "a b c", 1},
		// a leaf without an id still has its parent
		{"leaf without id", []*session.Entry{e("a", "", ""), e("b", "a", ""), e("", "a", "")}, "", "a ", 2},
		// an entry naming itself is a root; a dangling parent too
		{"self and dangling", []*session.Entry{e("a", "a", ""), e("b", "nope", ""), e("c", "b", "")}, "c", "b c", 2},
		{"cycle", []*session.Entry{e("a", "c", ""), e("b", "a", ""), e("c", "b", "")}, "c", "a b c", 1},
	} {
		cv := NewConversation(c.entries, false)
		leaf := ""
		if cv.Leaf != nil {
			leaf = cv.Leaf.ID
		}
		if leaf != c.leaf || ids(cv.Path()) != c.path || cv.Branches != c.branches {
			t.Errorf("%s: leaf %q, path %q, %d branches; want %q, %q, %d", c.name, leaf, ids(cv.Path()), cv.Branches, c.leaf, c.path, c.branches)
		}
		var x PathIndex
		for _, e := range c.entries {
			x.Add(e)
		}
		if x.Plan(); x.LeafID() != c.leaf {
			t.Errorf("%s: PathIndex's leaf is %q, want %q", c.name, x.LeafID(), c.leaf)
		}
		path, branches := ActivePath(c.entries, false)
		if len(path) != len(cv.Path()) || branches != cv.Branches {
			t.Errorf("%s: ActivePath gives %d entries and %d branches, Conversation %d and %d", c.name, len(path), branches, len(cv.Path()), cv.Branches)
		}
	}
	fork := []*session.Entry{e("a", "", ""), e("b", "a", ""), e("s", "b", "run"), e("c", "a", "")}
	cv := NewConversation(fork, false)
	if got := ids(cv.PathTo(cv.Index("b"))); got != "a b" {
		t.Errorf("path to b = %s", got)
	}
	if got := ids(cv.PathTo(cv.Index("s"))); got != "a b s" {
		t.Errorf("path to the sub-agent entry = %s", got)
	}
	if cv.Parent(0) != -1 || cv.Parent(3) != 0 || cv.Index("nope") != -1 || cv.Index("") != -1 {
		t.Errorf("parents %d %d, index of nope %d", cv.Parent(0), cv.Parent(3), cv.Index("nope"))
	}
}

// TestForgetIDsKeepsPath: a writer's pass after ForgetIDs sees the same
// active path and entry count as before it, with the ids and links gone.
func TestForgetIDsKeepsPath(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		s, links := randomSession(r)
		x := &PathIndex{MessageLinks: links}
		for _, e := range s {
			x.Add(e)
		}
		x.Plan()
		n := x.Len()
		on := make([]bool, n)
		for k := range on {
			on[k] = x.OnPath(k)
		}
		x.ForgetIDs()
		if x.Len() != n || x.id != nil || x.parent != nil {
			t.Fatalf("session %d: after ForgetIDs Len %d (want %d), links kept: %v", i, x.Len(), n, x.id != nil || x.parent != nil)
		}
		for k := range on {
			if x.OnPath(k) != on[k] {
				t.Fatalf("session %d: entry %d on path %v after ForgetIDs, %v before", i, k, !on[k], on[k])
			}
		}
	}
}
