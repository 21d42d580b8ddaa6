package convtree

import (
	"github.com/sesstool/sesstool/session"
)

// Conversation is a session in memory with its conversation tree, by the
// rules of PathIndex: what export shows, info counts and convert keeps.
type Conversation struct {
	Entries []*session.Entry
	Leaf    *session.Entry // the last main entry; nil when there is none
	// Shown is the shown leaf: the last entry of the active path that is
	// conversation (PathIndex.Shown); nil when there is no main entry.
	Shown    *session.Entry
	Branches int
	x        PathIndex
	last     []int32 // by name number (x.names): the last entry with that id
}

// NewConversation indexes entries (source order), reading their parent ids
// by the rule of messageLinks (session.Meta.MessageLinks). It holds pointers
// into entries, not copies.
func NewConversation(entries []*session.Entry, messageLinks bool) *Conversation {
	c := &Conversation{Entries: entries, x: PathIndex{MessageLinks: messageLinks}}
	for _, e := range entries {
		c.x.Add(e)
	}
	// the path index already numbers the ids: a slice by number finds the
	// last entry with an id in 4 bytes an id, where a map took about 50
	c.last = c.x.lastByName(func(uint8) bool { return true })
	c.Branches = c.x.Plan()
	if l := c.x.Leaf(); l >= 0 {
		c.Leaf, c.Shown = entries[l], entries[c.x.Shown()]
	}
	return c
}

// LeafAt is the index of Leaf, -1 when there is none.
func (c *Conversation) LeafAt() int { return c.x.Leaf() }

// ShownAt is the index of Shown, -1 when there is none.
func (c *Conversation) ShownAt() int { return c.x.Shown() }

// Parent is the index of the entry the i-th entry hangs from in the
// conversation tree, -1 for a root.
func (c *Conversation) Parent(i int) int { return c.x.Parent(i) }

// Index is the index of the last entry with id, -1 when there is none.
func (c *Conversation) Index(id string) int {
	if id == "" {
		return -1
	}
	if n, ok := c.x.names.Get(id); ok {
		return int(c.last[n])
	}
	return -1
}

// OnPath reports whether the i-th entry is on the active path.
func (c *Conversation) OnPath(i int) bool { return c.x.OnPath(i) }

// Path is the active path, root first.
func (c *Conversation) Path() []*session.Entry {
	if c.Leaf == nil {
		return nil
	}
	return c.PathTo(c.x.Leaf())
}

// PathTo is the path from the root down to the i-th entry (another branch
// than the active one); a cycle ends it.
func (c *Conversation) PathTo(i int) []*session.Entry {
	var rev []*session.Entry
	seen := make([]bool, len(c.Entries))
	for ; i >= 0 && !seen[i]; i = c.x.Parent(i) {
		seen[i] = true
		rev = append(rev, c.Entries[i])
	}
	out := make([]*session.Entry, len(rev))
	for k, e := range rev {
		out[len(rev)-1-k] = e
	}
	return out
}

// ActivePath returns the entries of the active path, in source order, and
// how many branches the session has (see PathIndex), reading the parent ids
// by the rule of messageLinks (session.Meta.MessageLinks).
func ActivePath(all []*session.Entry, messageLinks bool) (path []*session.Entry, branches int) {
	x := PathIndex{MessageLinks: messageLinks}
	for _, e := range all {
		x.Add(e)
	}
	branches = x.Plan()
	for i, e := range all {
		if x.OnPath(i) {
			path = append(path, e)
		}
	}
	return path, branches
}

// Main returns the entries of the main conversation (no Sidechain).
func Main(entries []*session.Entry) []*session.Entry {
	out := make([]*session.Entry, 0, len(entries))
	for _, e := range entries {
		if e.Sidechain == "" {
			out = append(out, e)
		}
	}
	return out
}

// attachment is an entry a layout that links messages only hangs off a
// message: a tool result or any entry that is not a message.
func attachment(e *session.Entry) bool {
	if e.Kind != session.KindMessage {
		return true
	}
	return e.Message != nil && e.Message.Role == session.RoleTool
}
