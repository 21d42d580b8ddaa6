package convert

import (
	"slices"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// callsOn drops the tool calls of a message whose role may carry none
// (Caps.ToolCallsOnlyOn, ToolCallOn: flat's calls are in assistant
// messages only), counted as the target declares.
func (a *adapted) callsOn(e *session.Entry) *session.Entry {
	r := a.to.ToolCallsOnlyOn
	m := e.Message
	if r == nil || a.to.CallsOn(m.Role) {
		return e
	}
	c, n := keepBlocks(e, func(b session.Block) bool { return b.Type != session.BlockToolCall })
	if n > 0 {
		a.lost.Add(loss.ToolCall, r.Action, r.Why, n)
	}
	return c
}

// resultsOn drops the tool_result blocks of a message whose role carries
// none (Caps.ResultsOnlyOn, ResultBlocksOn), counted as the target
// declares.
func (a *adapted) resultsOn(e *session.Entry) *session.Entry {
	r := a.to.ResultsOnlyOn
	if r == nil || slices.Contains(a.to.ResultBlocksOn, e.Message.Role) {
		return e
	}
	c, n := keepBlocks(e, func(b session.Block) bool { return b.Type != session.BlockToolResult })
	if n > 0 {
		a.lost.Add(loss.Block(session.BlockToolResult), r.Action, r.Why, n)
	}
	return c
}
