package session

// Tree indexes a session's entries by id for walking paths and branches.
// It holds pointers into Entries, not copies.
type Tree struct {
	Entries  []*Entry
	ByID     map[string]*Entry
	Children map[string][]*Entry // parent id ("" for roots) -> children in source order
}

// NewTree indexes entries. Readers give every entry an id (linear formats
// without ids get derived ones, chained in file order), so the model is always a tree.
func NewTree(entries []*Entry) *Tree {
	t := &Tree{Entries: entries, ByID: make(map[string]*Entry, len(entries)), Children: map[string][]*Entry{}}
	for _, e := range entries {
		if e.ID != "" {
			t.ByID[e.ID] = e
		}
	}
	for _, e := range entries {
		p := e.ParentID
		if p != "" && t.ByID[p] == nil {
			p = "" // a dangling parent makes a root, as pi's getTree does
		}
		t.Children[p] = append(t.Children[p], e)
	}
	return t
}

// Leaf is the entry a reopened session continues from: the last entry in
// source order (pi, ash and flat all resume there).
func (t *Tree) Leaf() *Entry {
	if len(t.Entries) == 0 {
		return nil
	}
	return t.Entries[len(t.Entries)-1]
}

// Path returns the entries from the root down to id, inclusive. A cycle or a
// dangling parent ends the walk instead of hanging it.
func (t *Tree) Path(id string) []*Entry {
	var rev []*Entry
	seen := map[string]bool{}
	for e := t.ByID[id]; e != nil && !seen[e.ID]; e = t.ByID[e.ParentID] {
		seen[e.ID] = true
		rev = append(rev, e)
		if e.ParentID == "" {
			break
		}
	}
	out := make([]*Entry, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}

// Leaves returns every entry with no children, in source order.
func (t *Tree) Leaves() []*Entry {
	var out []*Entry
	for _, e := range t.Entries {
		if e.ID == "" || len(t.Children[e.ID]) == 0 {
			out = append(out, e)
		}
	}
	return out
}

// Branches counts leaves: a linear session has one.
func (t *Tree) Branches() int { return len(t.Leaves()) }
