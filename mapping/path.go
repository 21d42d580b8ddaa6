package mapping

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// ActivePath returns the entries of the active path, in source order, and
// how many branches the session has. The active path runs from the root to
// the leaf (the last entry in source order: the one a reopened session
// continues from), plus the attachments of the entries on it: a tool result
// or a non-message entry (compaction, label, ...) that hangs off a path
// entry and has no children of its own. ash links only messages to
// messages, so its tool results and compactions are such attachments; they
// belong to the conversation, not to an abandoned branch.
//
// Entries of a sub-agent run or side file (Sidechain set: ash subagents/,
// goat's transcript) are not part of the main conversation and never on the
// path. A session whose last entry has no id, or whose entries carry no
// parent links at all, is taken whole, in order.
func ActivePath(all []*session.Entry) (path []*session.Entry, branches int) {
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
	branches = 1
	for _, e := range entries {
		if on[e] {
			path = append(path, e)
		} else if e.ID == "" || len(t.Children[e.ID]) == 0 {
			branches++ // the tip of an abandoned branch
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

func attachment(e *session.Entry) bool {
	if e.Kind != session.KindMessage {
		return true
	}
	return e.Message != nil && e.Message.Role == session.RoleTool
}

// Flatten returns the active path of entries for a layout that cannot hold
// branches, and counts in loss the branches flattened and the entries left
// off the path. layout names the target in the reasons.
func Flatten(entries []*session.Entry, loss *format.Loss, layout string) []*session.Entry {
	path, branches := ActivePath(entries)
	main := len(Main(entries))
	loss.Add(KindSidechain, ActionDropped, layout+" has no sub-agent runs or side files", len(entries)-main)
	if branches > 1 {
		loss.Add(KindBranch, ActionFlattened, layout+" is linear: only the active path (root to the last entry) is kept", branches-1)
	}
	loss.Add(KindOffPath, ActionDropped, layout+" is linear: entries off the active path are not written", main-len(path))
	return path
}
