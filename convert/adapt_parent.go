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

// parentID drops the parent's file path from the link where the target
// links a fork by id only (Caps.ParentPathDropped), and the link itself
// when it names no parent session id where the target needs one
// (Caps.ParentNeedsID); each counted as the target declares.
func (a *adapted) parentID() {
	p := a.meta.Parent
	if p == nil {
		return
	}
	if r := a.to.ParentPathDropped; r != nil && p.Path != "" {
		a.lost.Add(loss.ParentPath, r.Action, r.Why, 1)
		cp := *p
		cp.Path = ""
		p = &cp
	}
	if r := a.to.ParentNeedsID; r != nil && p.SessionID == "" {
		a.lost.Add(loss.ParentLink, r.Action, r.Why, 1)
		p = nil
	}
	if p != a.meta.Parent {
		m := *a.meta
		m.Parent = p
		a.meta = &m
	}
}
