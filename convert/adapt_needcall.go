package convert

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// needCall is e as a target whose tool results need their call before them
// (Caps.CallBeforeResult) takes it, or nil when e is a tool message whose
// call was not kept: the calls of the kept messages of a role that carries
// them are remembered, and a result naming none of them (a tool message,
// or a tool_result block of a message that carries no calls) is dropped
// and counted; a message that held nothing but such results is dropped
// whole.
func (a *adapted) needCall(e *session.Entry) *session.Entry {
	m := e.Message
	if m == nil {
		return e
	}
	why := ownReason(a.to, loss.ToolResult, "its tool call is not in a message "+a.layout+" keeps")
	if m.Role == session.RoleTool {
		if a.madeCalls[m.ToolCallID] {
			return e
		}
		a.lost.Drop(loss.ToolResult, why, 1)
		return a.drop(e)
	}
	if a.to.CallsOn(m.Role) {
		for _, b := range m.Content {
			if b.Type == session.BlockToolCall {
				if a.madeCalls == nil {
					a.madeCalls = map[string]bool{}
				}
				a.madeCalls[b.ToolCallID] = true
			}
		}
		return e
	}
	c, orphans := keepBlocks(e, func(b session.Block) bool {
		return b.Type != session.BlockToolResult || a.madeCalls[b.ToolCallID]
	})
	if orphans > 0 {
		a.lost.Drop(loss.ToolResult, why, orphans)
		if len(c.Message.Content) == 0 {
			return a.drop(e) // it held nothing but those results
		}
	}
	return c
}
