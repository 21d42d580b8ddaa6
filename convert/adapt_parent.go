package convert

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
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

// forkEntry notes whether e, an entry given to the writer, is the message
// the session's fork point names (Caps.ForkPointKept).
func (a *adapted) forkEntry(e *session.Entry) {
	p := a.meta.Parent
	if a.to.ForkPointKept != nil && p != nil && p.EntryID != "" && e.ID == p.EntryID && e.Kind == session.KindMessage && e.Message != nil {
		a.forkKept = true
	}
}

// forkPoint counts, once every entry has been read, the link to a fork
// point the target cannot name (Caps.ForkPointKept): its entry is no
// message kept, and its id is not in the target's form.
func (a *adapted) forkPoint() {
	r, p := a.to.ForkPointKept, a.meta.Parent
	if r == nil || a.forkCounted || p == nil || p.EntryID == "" || a.forkKept || spell.KeepsID(a.to.IDs, p.EntryID) {
		return
	}
	a.forkCounted = true
	a.lost.Add(loss.ParentLink, r.Action, r.Why, 1)
}

// parentInBatch is r without its link to its parent session when the
// target keeps only a link to a parent converted in the same run
// (Caps.ParentInBatch) and batch, the source ids of the sessions of the
// run, does not hold the parent, counted as it declares. It applies to the
// target's own sessions too (a child stored without its parent is hidden
// whoever wrote it), so it is applied before Adapt, which passes those
// through; r as it is when the rule keeps the link or batch is unknown.
func parentInBatch(r session.Reader, to format.Caps, batch map[string]bool, lost *loss.Counter) session.Reader {
	rule, p := to.ParentInBatch, r.Meta().Parent
	if rule == nil || batch == nil || p == nil || p.SessionID == "" || batch[p.SessionID] {
		return r
	}
	lost.Add(loss.ParentLink, rule.Action, rule.Why, 1)
	m := *r.Meta()
	m.Parent = nil
	return &withMeta{Reader: r, meta: &m}
}

// withMeta is a session read with another Meta.
type withMeta struct {
	session.Reader
	meta *session.Meta
}

func (w *withMeta) Meta() *session.Meta { return w.meta }
