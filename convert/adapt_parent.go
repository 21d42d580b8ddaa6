package convert

import (
	"github.com/sesstool/sesstool/loss"
)

// parentLink drops a link to the parent session that lacks the parent's
// file path or fork entry when the target needs both
// (Caps.ParentNeedsPath), counted as it declares.
func (a *adapted) parentLink() {
	r, p := a.to.ParentNeedsPath, a.meta.Parent
	if r == nil || p == nil || p.Path != "" && p.EntryID != "" {
		return
	}
	a.lost.Add(loss.ParentLink, r.Action, r.Why, 1)
	m := *a.meta
	m.Parent = nil
	a.meta = &m
}
