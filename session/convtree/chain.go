package convtree

import "github.com/sesstool/sesstool/session"

// Chain re-links a session whose layout links messages only
// (session.Meta.MessageLinks) for a layout that links every entry, by the
// rule PathIndex applies (one implementation, linker): an attachment hangs
// off the last attachment already written under the same message, and a
// message continues from there, so tool results and compactions stay on the
// path to the leaf. Branches (two messages under one parent) stay branches.
// Entries must come in source order. A writer makes one only for such a
// session; any other keeps its parent ids as they are.
//
// A message without a parent after the first one continues from the entry
// before it: ash reads a file without parent ids as one linear chat.
type Chain struct{ l linker[string] }

// Parent returns e's parent id in the re-linked tree (a source id).
func (c *Chain) Parent(e *session.Entry) string { return c.l.parent(e, e.ID, e.ParentID) }

// linker is where an entry hangs in the conversation tree of a layout that
// links messages only, applied in source order. K names an entry: its id
// (Chain, where none is "") or PathIndex's number for it (none is -1).
type linker[K comparable] struct {
	started bool
	none    K
	tail    map[K]K // message -> the last attachment hung under it
	last    K       // the last entry
}

// parent returns the parent of e, named id, whose source parent is p.
func (l *linker[K]) parent(e *session.Entry, id, p K) K {
	// a sub-agent run keeps its own links: pi's writer leaves it out, and
	// it must not move where the main conversation continues
	if e.Sidechain != "" {
		return p
	}
	if !l.started {
		l.started, l.tail, l.last = true, map[K]K{}, l.none
	}
	defer func() { l.last = id }()
	if p == l.none {
		return l.last
	}
	np := p
	if t, ok := l.tail[p]; ok {
		np = t
	}
	if attachment(e) && id != l.none {
		l.tail[p] = id
	}
	return np
}
