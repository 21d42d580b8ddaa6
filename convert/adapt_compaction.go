package convert

import (
	"slices"

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

// compactionAsUser gives a compaction of another layout the user message
// of its summary where the target keeps one as such (Caps.
// CompactionAsUser): the model reads the summary from it when the session
// is resumed. The entry keeps its kind, so that its writer can mark the
// line as a summary (Claude Code's and Qwen Code's isCompactSummary); a
// compaction with no summary has been dropped by lines.
func (a *adapted) compactionAsUser(e *session.Entry) *session.Entry {
	if !a.to.CompactionAsUser || e.Kind != session.KindCompaction || e.Compaction == nil {
		return e
	}
	c := *e
	c.Message = &session.Message{Role: session.RoleUser, ContentIsString: true,
		Content: []session.Block{{Type: session.BlockText, Text: e.Compaction.Summary}}}
	return &c
}

// compactionLacks is compaction e without the fields the target has no
// slot for (Caps.CompactionLacks), each counted: in the layout's words
// where it gives them (Codex's compacted line keeps the summary only).
func (a *adapted) compactionLacks(e *session.Entry) *session.Entry {
	if len(a.to.CompactionLacks) == 0 || e.Kind != session.KindCompaction || e.Compaction == nil {
		return e
	}
	c := *e.Compaction
	changed := false
	drop := func(k loss.Kind, set bool) bool {
		if !set || !slices.Contains(a.to.CompactionLacks, k) {
			return false
		}
		a.lost.Drop(k, ownReason(a.to, k, a.layout+"'s compaction entry has no such field"), 1)
		changed = true
		return true
	}
	if drop(loss.FirstKept, c.FirstKeptID != "") {
		c.FirstKeptID = ""
	}
	if drop(loss.CompactionTokensAfter, c.TokensAfter != nil) {
		c.TokensAfter = nil
	}
	if drop(loss.CompactionDetails, len(c.Details) > 0 && string(c.Details) != "null") {
		c.Details = nil
	}
	if drop(loss.CompactionBranch, c.BranchID != "") {
		c.BranchID = ""
	}
	if !changed {
		return e
	}
	ce := *e
	ce.Compaction = &c
	return &ce
}

// firstKeptEarlier is compaction e as a target whose compaction names an
// entry written before it takes it (Caps.FirstKeptEarlier): as it is when
// its first kept entry was given before it; else naming none, which the
// writer spells as the entry before it, counted moved; nil, counted
// dropped, when no entry was given before it.
func (a *adapted) firstKeptEarlier(e *session.Entry) *session.Entry {
	if !a.to.FirstKeptEarlier || e.Kind != session.KindCompaction || e.Compaction == nil {
		return e
	}
	k := e.Compaction.FirstKeptID
	if _, ok := a.given.Get(k); ok && k != "" {
		return e
	}
	if !a.anyGiven {
		a.lost.Drop(loss.CompactionEntry, ownReason(a.to, loss.CompactionEntry,
			a.layout+"'s compaction must name an earlier kept entry, and none was written before this one"), 1)
		return a.drop(e)
	}
	a.lost.Add(loss.FirstKept, loss.Moved, ownReason(a.to, loss.FirstKept,
		a.layout+"'s compaction must name an earlier kept entry; the entry before the summary is kept (a tool result with its call)"), 1)
	c, ce := *e.Compaction, *e
	c.FirstKeptID = ""
	ce.Compaction = &c
	return &ce
}

// written records e as given to the writer, which a later compaction may
// keep (Caps.FirstKeptEarlier).
func (a *adapted) written(e *session.Entry) {
	if !a.to.FirstKeptEarlier {
		return
	}
	a.anyGiven = true
	if e.ID != "" {
		a.given.Put(e.ID, 0)
	}
}

// firstKeptNamed counts compaction e, which names no first kept entry,
// where the target's compaction must name one (Caps.FirstKeptNamed): its
// writer names the entry before it (a tool result: its call's message),
// which the source did not, so the first kept entry is moved. A compaction
// that starts the session follows no entry and is left as it is. The entry
// before it is its parent, or, in a session whose tree links messages only
// (ash), the entry given before it (convtree.Chain).
func (a *adapted) firstKeptNamed(e *session.Entry) *session.Entry {
	if a.to.FirstKeptNamed == "" || e.Compaction == nil || e.Compaction.FirstKeptID != "" || a.to.Owns(e.Origin) {
		return e
	}
	if e.ParentID != "" || a.meta.MessageLinks && a.nGiven > 0 {
		a.lost.Add(loss.FirstKept, loss.Moved, a.to.FirstKeptNamed, 1)
	}
	return e
}
