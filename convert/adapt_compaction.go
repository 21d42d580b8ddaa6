package convert

import (
	"encoding/json"

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

// summaryOnly is compaction e as a target keeping a compaction's summary
// only (Caps.CompactionSummaryOnly) takes it: without the first kept
// entry, the token count after, the details and the branch, each counted.
func (a *adapted) summaryOnly(e *session.Entry) *session.Entry {
	c := e.Compaction
	drop := func(k loss.Kind, set bool) {
		if set {
			a.lost.Drop(k, ownReason(a.to, k, a.layout+" keeps a compaction's summary only"), 1)
		}
	}
	details := len(c.Details) > 0 && string(c.Details) != "null"
	drop(loss.FirstKept, c.FirstKeptID != "")
	drop(loss.CompactionTokensAfter, c.TokensAfter != nil)
	drop(loss.CompactionDetails, details)
	drop(loss.CompactionBranch, c.BranchID != "")
	if c.FirstKeptID == "" && c.TokensAfter == nil && !details && c.BranchID == "" {
		return e
	}
	cc, ce := *c, *e
	cc.FirstKeptID, cc.TokensAfter, cc.Details, cc.BranchID = "", nil, json.RawMessage(nil), ""
	ce.Compaction = &cc
	return &ce
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
	if e.ParentID != "" || a.meta.MessageLinks && a.given > 0 {
		a.lost.Add(loss.FirstKept, loss.Moved, a.to.FirstKeptNamed, 1)
	}
	return e
}
