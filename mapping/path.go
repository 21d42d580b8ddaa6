package mapping

import (
	"github.com/sesstool/sesstool/loss"
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
	var x PathIndex
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

func attachment(e *session.Entry) bool {
	if e.Kind != session.KindMessage {
		return true
	}
	return e.Message != nil && e.Message.Role == session.RoleTool
}

// Flatten returns the active path of entries for a layout that cannot hold
// branches, and counts in loss the branches flattened and the entries left
// off the path. layout names the target in the reasons.
func Flatten(entries []*session.Entry, lost *loss.Counter, layout string) []*session.Entry {
	var x PathIndex
	for _, e := range entries {
		x.Add(e)
	}
	branches := x.Plan()
	x.Loss(lost, layout, branches)
	var path []*session.Entry
	for i, e := range entries {
		if x.OnPath(i) {
			path = append(path, e)
		}
	}
	return path
}
