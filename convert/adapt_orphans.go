package convert

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// A tool result's place, as the target declares it (Caps.ResultsNeedCall,
// adapt_needcall.go; Caps.ResultsTextOnly): one whose call was in no
// message kept before it is dropped, and one that keeps only text loses
// its other blocks.

// isResult reports whether e is a tool's result: a message, or a custom
// message, of the tool role.
func isResult(e *session.Entry) bool {
	return e.Message != nil && e.Message.Role == session.RoleTool
}

// resultText is tool result e with its text blocks only, when the target
// keeps nothing else of a result; what it drops is counted.
func (a *adapted) resultText(e *session.Entry) *session.Entry {
	if a.to.ResultsTextOnly == "" || !isResult(e) {
		return e
	}
	c, _ := editBlocks(e, func(b session.Block) bool { return b.Type != session.BlockText }, func(b session.Block) (session.Block, bool) {
		a.lost.Add(loss.Block(b.Type), loss.Dropped, a.to.ResultsTextOnly, 1)
		return b, false
	})
	return c
}
