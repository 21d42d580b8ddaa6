package convert

import (
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
	n := 0
	for _, b := range m.Content {
		if b.Type == session.BlockToolCall {
			n++
		}
	}
	if n == 0 {
		return e
	}
	a.lost.Add(loss.ToolCall, r.Action, r.Why, n)
	cm := *m
	cm.Content = make([]session.Block, 0, len(m.Content)-n)
	for _, b := range m.Content {
		if b.Type != session.BlockToolCall {
			cm.Content = append(cm.Content, b)
		}
	}
	c := *e
	c.Message = &cm
	return &c
}
