// Package convtree is the one definition of a session's conversation tree:
// where each entry hangs, the leaf, the active path and the branches. info
// counts with it, export shows it (Conversation) and convert keeps it
// (PathIndex, read twice by Index), so the three never disagree.
//
// How a session's parent ids are read depends on the layout that wrote them:
// one that links messages to messages only (ash) hangs tool results and
// compactions off a message. Its reader says so in session.Meta.MessageLinks,
// from its layout's declaration (format.Caps.MessageLinks), and every
// function here takes that rule as a parameter; nothing is registered.
package convtree

import (
	"github.com/sesstool/sesstool/internal/idset"
	"github.com/sesstool/sesstool/session"
)

// PathIndex is the one definition of a session's conversation tree, its
// leaf, its active path and its branches; info counts with it, export shows
// it (Conversation) and convert's linear writers keep it. It reads a
// session one entry at a time and keeps a few bytes per entry instead of the
// entries: a writer for a linear layout reads the session once to Add every
// entry, calls Plan, and then reads it again, writing the entries OnPath
// says.
//
// The rules (docs/commands.md says them for users):
//   - The main conversation is every entry outside a sub-agent run or side
//     file (Sidechain set: ash subagents/, goat's transcript).
//   - An entry hangs from its parent, the last entry with its parent id. A
//     dangling parent or an entry naming itself makes a root. A main entry
//     hangs only from main entries.
//   - With MessageLinks (a session of a layout that links messages to
//     messages only, ash), each tool result or other non-message entry of
//     the main conversation hangs in order after the message it names,
//     and the next message continues after the last of them (Chain): such
//     entries are part of the conversation, not lines of their own. A
//     message that names no parent continues from the entry before it.
//   - A session in which no entry hangs from another is one line, in source
//     order.
//   - The leaf is the last main entry in source order: where pi, ash and
//     flat resume. The active path runs from the root down to the leaf (a
//     cycle ends it).
//   - The shown leaf, the one info names and export ends the shown branch
//     at, is the last entry of the active path that is conversation: not a
//     record its layout declares bookkeeping (Claude Code's last-prompt
//     line) nor a sub-agent run's start or end (Claude Code reads runs
//     no result names, its compaction agent's, after the last line).
//   - The branches are the lines of conversation: the active path, and one
//     more for each main entry off it that nothing hangs from. A linear
//     session has one, an empty one none.
type PathIndex struct {
	// MessageLinks reads the parent ids by the rule of a layout that links
	// messages only (session.Meta.MessageLinks); set before the first Add.
	MessageLinks bool

	names  idset.Index // entry id -> name number
	nnames int32
	link   linker[int32]
	// Per entry, in the order added: its name and its parent's (-1 for
	// none); after Plan, parent is the index of the parent entry (-1 for a
	// root).
	id, parent []int32
	role       []uint8 // main, sidechain or skipped
	quiet      []bool  // bookkeeping or a sub-agent run's marker: never the shown leaf
	on         []bool  // after Plan
	planned    bool
	leaf       int
	branches   int
	skipped    int
}

const (
	roleMain uint8 = iota
	roleSide
	roleSkipped
)

// Skip records the next entry as one the writer handles apart (goat's
// transcript): never on the path, and not counted as lost.
func (x *PathIndex) Skip() {
	x.id = append(x.id, -1)
	x.parent = append(x.parent, -1)
	x.role = append(x.role, roleSkipped)
	x.quiet = append(x.quiet, true)
	x.skipped++
}

// Main is the number of entries added with Add, sidechains included.
func (x *PathIndex) Main() int { return len(x.id) - x.skipped }

// Add records the next entry in source order.
func (x *PathIndex) Add(e *session.Entry) {
	role := roleMain
	if e.Sidechain != "" {
		role = roleSide
	}
	id, p := x.name(e.ID), x.name(e.ParentID)
	if x.MessageLinks {
		x.link.none = -1
		p = x.link.parent(e, id, p)
	}
	x.id = append(x.id, id)
	x.parent = append(x.parent, p)
	x.role = append(x.role, role)
	x.quiet = append(x.quiet, session.IsBookkeeping(e) || e.Kind == session.KindSubagent || e.Kind == session.KindSubagentEnd)
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

// Plan computes the active path and returns the number of branches; later
// calls return the same.
func (x *PathIndex) Plan() (branches int) {
	if x.planned {
		return x.branches
	}
	x.planned = true
	n := len(x.id)
	x.on = make([]bool, n)
	mainRoots, mainN := x.resolve()
	x.leaf = -1
	for i := n - 1; i >= 0; i-- {
		if x.role[i] == roleMain {
			x.leaf = i
			break
		}
	}
	if x.leaf < 0 {
		return 0
	}
	if mainN > 1 && mainRoots == mainN {
		prev := int32(-1)
		for i := range x.id {
			if x.role[i] == roleMain {
				x.parent[i], prev = prev, int32(i)
			}
		}
	}
	for i := x.leaf; i >= 0 && !x.on[i]; i = int(x.parent[i]) {
		x.on[i] = true
	}
	hasChild := make([]bool, n)
	for i, p := range x.parent {
		if p >= 0 && x.role[i] == roleMain {
			hasChild[p] = true
		}
	}
	x.branches = 1
	for i := range x.id {
		if x.role[i] == roleMain && !x.on[i] && !hasChild[i] {
			x.branches++ // the tip of another line
		}
	}
	return x.branches
}

// resolve turns parent names into entry indexes: the last main entry with
// that id for a main entry, the last entry of any kind for a sidechain
// entry. It returns how many main entries are roots, of how many.
func (x *PathIndex) resolve() (roots, mainN int) {
	byMain := x.lastByName(func(r uint8) bool { return r == roleMain })
	var byAny []int32
	for i, p := range x.parent {
		r := int32(-1)
		switch {
		case p < 0:
		case x.role[i] == roleMain:
			r = byMain[p]
		default:
			if byAny == nil {
				byAny = x.lastByName(func(r uint8) bool { return r != roleSkipped })
			}
			r = byAny[p]
		}
		if r == int32(i) {
			r = -1
		}
		x.parent[i] = r
		if x.role[i] == roleMain {
			mainN++
			if r < 0 {
				roots++
			}
		}
	}
	return roots, mainN
}

func (x *PathIndex) lastByName(keep func(uint8) bool) []int32 {
	by := make([]int32, x.nnames)
	for i := range by {
		by[i] = -1
	}
	for i, id := range x.id {
		if id >= 0 && keep(x.role[i]) {
			by[id] = int32(i)
		}
	}
	return by
}

// OnPath reports whether the i-th entry added (0-based, source order) is on
// the active path. Plan must have run.
func (x *PathIndex) OnPath(i int) bool { return x.on[i] }

// Leaf is the index of the leaf entry, -1 when there is no main entry. Plan
// must have run.
func (x *PathIndex) Leaf() int { return x.leaf }

// Shown is the index of the shown leaf: the last entry of the active path
// that is conversation (see the rules above), the leaf when none is; -1
// when there is no main entry. Plan must have run.
func (x *PathIndex) Shown() int {
	seen := 0
	for i := x.leaf; i >= 0 && seen <= len(x.id); i = int(x.parent[i]) {
		if !x.quiet[i] {
			return i
		}
		seen++ // a cycle ends the path
	}
	return x.leaf
}

// ShownID is the shown leaf's id ("" when it has none or there is no main
// entry). Plan must have run.
func (x *PathIndex) ShownID() string { return x.idOf(x.Shown()) }

// LeafID is the leaf's id ("" when it has none or there is no main
// entry). Plan must have run; it looks the id up among every id seen, so
// call it once.
func (x *PathIndex) LeafID() string { return x.idOf(x.leaf) }

// idOf is the id of the i-th entry, looked up among every id seen.
func (x *PathIndex) idOf(i int) string {
	if i < 0 || x.id[i] < 0 {
		return ""
	}
	want, id := x.id[i], ""
	x.names.Each(func(s string, k int32) {
		if k == want {
			id = s
		}
	})
	return id
}

// ForgetIDs drops the index of ids and the links (about 25 bytes an entry
// together) once a writer has read PathIDs: it then needs only OnPath and
// Len, and none of LeafID, Shown, ShownID, PathIDs, Parent, Counts or Main may be called
// afterwards. At a million entries that is tens of MiB the streaming
// commands' memory limit would otherwise grow by.
func (x *PathIndex) ForgetIDs() {
	if !x.planned {
		x.Plan() // OnPath needs the path
	}
	x.names, x.id, x.parent, x.role, x.quiet = idset.Index{}, nil, nil, nil, nil
}

// Parent is the index of the entry the i-th entry hangs from in the
// conversation tree, -1 for a root or a skipped entry. Plan must have run.
func (x *PathIndex) Parent(i int) int { return int(x.parent[i]) }

// Len is the number of entries added.
func (x *PathIndex) Len() int {
	if x.planned {
		return len(x.on) // the one kept after ForgetIDs
	}
	return len(x.id)
}

// Counts are the entries on the active path, in the main conversation
// (sidechains excluded) and in sidechains: what flattening to the path
// leaves out. Plan must have run.
func (x *PathIndex) Counts() (path, main, side int) {
	for i, r := range x.role {
		switch r {
		case roleMain:
			main++
			if x.on[i] {
				path++
			}
		case roleSide:
			side++
		}
	}
	return path, main, side
}

// PathIDs calls f once for each distinct id of an entry on the active path.
// Plan must have run.
func (x *PathIndex) PathIDs(f func(id string)) {
	on := make([]uint64, (x.nnames+63)/64) // a bit per name: a map took tens of bytes each
	for i, id := range x.id {
		if x.on[i] && id >= 0 {
			on[id/64] |= 1 << (id % 64)
		}
	}
	x.names.Each(func(id string, k int32) {
		if on[k/64]&(1<<(k%64)) != 0 {
			f(id)
		}
	})
}
