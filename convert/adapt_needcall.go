package convert

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// needCall is e as a target whose tool results need their call kept
// before them (Caps.ResultsNeedCall: ash's tool_result line, Codex's
// function_call_output and flat's and goat's tool messages name a call
// written before them) takes it, or nil when e is a tool result whose call
// was not kept. The calls of the kept messages of a role that carries them
// (ToolCallOn) are remembered, and a result naming none of them, a tool
// message (or a tool's extension message) or a tool_result block (after
// the calls of its own message), is dropped and counted with the target's
// reason; a message of nothing but such blocks is dropped whole. It runs
// where the target places what it holds (place), after a sub-agent run it
// drops has taken its own entries, so a result in such a run is counted
// with the run.
func (a *adapted) needCall(e *session.Entry) *session.Entry {
	m := e.Message
	if a.to.ResultsNeedCall == "" || m == nil {
		return e
	}
	if m.Role == session.RoleTool {
		if a.keptCalls[m.ToolCallID] {
			return e
		}
		a.lost.Drop(loss.ToolResult, a.to.ResultsNeedCall, 1)
		return a.drop(e)
	}
	if a.to.CallsOn(m.Role) {
		for _, b := range m.Content {
			if b.Type == session.BlockToolCall {
				if a.keptCalls == nil {
					a.keptCalls = map[string]bool{}
				}
				a.keptCalls[b.ToolCallID] = true
			}
		}
	}
	c, orphans := keepBlocks(e, func(b session.Block) bool {
		return b.Type != session.BlockToolResult || a.keptCalls[b.ToolCallID]
	})
	if orphans == 0 {
		return e
	}
	a.lost.Drop(loss.ToolResult, a.to.ResultsNeedCall, orphans)
	if len(c.Message.Content) == 0 {
		// nothing of it is left to write
		return a.drop(e)
	}
	return c
}
