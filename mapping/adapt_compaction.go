package mapping

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// compaction counts what becomes of compaction e in a target that writes
// it as something of its own (Caps.CompactionConverted), and of the first
// kept entry it names where the target names none (Caps.FirstKeptMoved):
// read back, the message before it is kept (for a tool result, its call's
// message: Calls.Kept), so any other is moved.
func (a *adapted) compaction(e *session.Entry) {
	if e.Kind != session.KindCompaction || e.Message != nil || e.Compaction == nil {
		return
	}
	if a.to.CompactionConverted != "" {
		a.lost.Add(loss.Compaction, loss.Converted, a.to.CompactionConverted, 1)
	}
	if k := e.Compaction.FirstKeptID; a.to.FirstKeptMoved != "" && k != "" && k != a.kept.Kept(a.lastMsg) {
		a.lost.Add(loss.FirstKept, loss.Moved, a.to.FirstKeptMoved, 1)
	}
}

// message records e, a kept entry, as the message a compaction after it
// keeps.
func (a *adapted) message(e *session.Entry) {
	if a.to.FirstKeptMoved == "" || e.Message == nil {
		return
	}
	a.kept.Add(e, e.ID)
	a.lastMsg = e.ID
}
