package mapping

import (
	"github.com/sesstool/sesstool/internal/idset"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// PathIndex finds the active path of a session read one entry at a time,
// keeping a few bytes per entry instead of the entries: a writer for a
// linear layout reads the session once to Add every entry, calls Plan, and
// then reads it again, writing the entries OnPath says. ActivePath is the
// same computation on entries in memory.
type PathIndex struct {
	names  idset.Index // entry id -> name number
	nnames int32
	// Per entry of the main conversation, in source order.
	id, parent []int32 // name numbers; -1 for ""
	attach     []bool
	// Per entry in source order, sidechains included: its index among the
	// main entries, or -1 for a sidechain entry.
	main    []int32
	on      []bool // per main entry, after Plan
	skipped int
}

// Skip records the next entry as one the writer handles apart (goat's
// transcript): never on the path, and not counted as lost.
func (x *PathIndex) Skip() {
	x.main = append(x.main, -1)
	x.skipped++
}

// Main is the number of entries added with Add, sidechains included.
func (x *PathIndex) Main() int { return len(x.main) - x.skipped }

// Add records the next entry in source order.
func (x *PathIndex) Add(e *session.Entry) {
	if e.Sidechain != "" {
		x.main = append(x.main, -1)
		return
	}
	x.main = append(x.main, int32(len(x.id)))
	x.id = append(x.id, x.name(e.ID))
	x.parent = append(x.parent, x.name(e.ParentID))
	x.attach = append(x.attach, attachment(e))
}

func (x *PathIndex) name(id string) int32 {
	if id == "" {
		return -1
	}
	if n, ok := x.names.Get(id); ok {
		return n
	}
	n := x.nnames
	x.names.Put(id, n)
	x.nnames++
	return n
}

// Plan computes the active path (see ActivePath) and returns the number of
// branches.
func (x *PathIndex) Plan() (branches int) {
	n := len(x.id)
	x.on = make([]bool, n)
	if n == 0 {
		return 0
	}
	byName := make([]int32, x.nnames) // the last entry with each id, as session.Tree's ByID
	for i := range byName {
		byName[i] = -1
	}
	for i, id := range x.id {
		if id >= 0 {
			byName[id] = int32(i)
		}
	}
	children, roots := x.children(byName)
	leaf := n - 1
	if x.id[leaf] < 0 || roots == n {
		for i := range x.on {
			x.on[i] = true
		}
		return 1
	}
	x.walk(leaf, byName)
	// session.Tree files entries without an id under "", the roots.
	hasChildren := func(i int) bool { return x.id[i] < 0 && roots > 0 || x.id[i] >= 0 && children[x.id[i]] > 0 }
	for i := range x.on {
		p := x.parentEntry(i, byName)
		if p >= 0 && x.on[p] && !x.on[i] && x.attach[i] && !hasChildren(i) {
			x.on[i] = true
		}
	}
	branches = 1
	for i := range x.on {
		if !x.on[i] && (x.id[i] < 0 || !hasChildren(i)) {
			branches++ // the tip of an abandoned branch
		}
	}
	return branches
}

// children counts, per id, the entries whose parent it is; a dangling parent
// makes a root, as in session.NewTree.
func (x *PathIndex) children(byName []int32) (count []int32, roots int) {
	count = make([]int32, x.nnames)
	for i := range x.id {
		if p := x.parentEntry(i, byName); p >= 0 {
			count[x.parent[i]]++
		} else {
			roots++
		}
	}
	return count, roots
}

func (x *PathIndex) parentEntry(i int, byName []int32) int {
	if x.parent[i] < 0 {
		return -1
	}
	return int(byName[x.parent[i]])
}

// walk marks the path from the root down to entry i, as session.Tree.Path:
// a cycle or a dangling parent ends it.
func (x *PathIndex) walk(i int, byName []int32) {
	seen := map[int32]bool{}
	for e := int(byName[x.id[i]]); e >= 0 && !seen[x.id[e]]; e = x.parentEntry(e, byName) {
		seen[x.id[e]] = true
		x.on[e] = true
		if x.parent[e] < 0 {
			break
		}
	}
}

// OnPath reports whether the i-th entry added (0-based, source order) is on
// the active path. Plan must have run.
func (x *PathIndex) OnPath(i int) bool {
	m := x.main[i]
	return m >= 0 && x.on[m]
}

// Len is the number of entries added.
func (x *PathIndex) Len() int { return len(x.main) }

// Loss counts what flattening drops, as Flatten does.
func (x *PathIndex) Loss(lost *loss.Counter, layout string, branches int) {
	path := 0
	for _, on := range x.on {
		if on {
			path++
		}
	}
	main := len(x.id)
	lost.Add(loss.Sidechain, loss.Dropped, layout+" has no sub-agent runs or side files", x.Main()-main)
	if branches > 1 {
		lost.Add(loss.Branch, loss.Flattened, layout+" is linear: only the active path (root to the last entry) is kept", branches-1)
	}
	lost.Add(loss.OffPath, loss.Dropped, layout+" is linear: entries off the active path are not written", main-path)
}

// PathIDs calls f once for each distinct id of an entry on the active path.
// Plan must have run.
func (x *PathIndex) PathIDs(f func(id string)) {
	on := make(map[int32]bool)
	for i, id := range x.id {
		if x.on[i] && id >= 0 {
			on[id] = true
		}
	}
	x.names.Each(func(id string, k int32) {
		if on[k] {
			f(id)
		}
	})
}
