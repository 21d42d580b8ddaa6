package mapping

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// ActivePath returns the entries from the root to the leaf (the last entry
// in source order: the one a reopened session continues from), and how
// many branches the session has. A session whose last entry has no id, or
// whose entries carry no parent links at all, is taken whole, in order.
func ActivePath(entries []*session.Entry) (path []*session.Entry, branches int) {
	if len(entries) == 0 {
		return nil, 0
	}
	t := session.NewTree(entries)
	leaf := t.Leaf()
	if leaf.ID == "" || len(t.Children[""]) == len(entries) {
		return entries, 1
	}
	return t.Path(leaf.ID), t.Branches()
}

// Flatten returns the active path of entries for a layout that cannot hold
// branches, and counts in loss the branches flattened and the entries left
// off the path. layout names the target in the reasons.
func Flatten(entries []*session.Entry, loss *format.Loss, layout string) []*session.Entry {
	path, branches := ActivePath(entries)
	if branches > 1 {
		loss.Add(KindBranch, ActionFlattened, layout+" is linear: only the active path (root to the last entry) is kept", branches-1)
	}
	loss.Add(KindOffPath, ActionDropped, layout+" is linear: entries off the active path are not written", len(entries)-len(path))
	return path
}
