package convert

import (
	"github.com/sesstool/sesstool/format"
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
