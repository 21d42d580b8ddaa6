package mapping

import (
	"encoding/json"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

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
