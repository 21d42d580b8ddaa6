package convert

import (
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// TestAdaptAnswersCalls: a target whose calls need results
// (Caps.CallsNeedResults) gets one for each call the session leaves
// unanswered, before the entry that closes the call's turn.
func TestAdaptAnswersCalls(t *testing.T) {
	u, a := session.RoleUser, session.RoleAssistant
	call := func(id, parent string, calls ...string) *session.Entry {
		e := msg(id, parent, a)
		for _, c := range calls {
			e.Message.Content = append(e.Message.Content, session.Block{Type: session.BlockToolCall, ToolCallID: c, ToolName: "run"})
		}
		return e
	}
	result := func(id, parent, callID string) *session.Entry {
		e := msg(id, parent, session.RoleTool)
		e.Message.ToolCallID = callID
		return e
	}
	answering := func(e *session.Entry, callID string) *session.Entry {
		e.Message.Content = append(e.Message.Content, session.Block{Type: session.BlockToolResult, ToolCallID: callID})
		return e
	}
	// the Messages API's rule: results on the next user turn, as
	// tool_result blocks of one user message
	next := format.Caps{Own: []string{"nx"}, Sidechains: true, CallsNeedResults: true, CallsNeedResultsWhy: "answered",
		Roles:  []session.Role{u, a, session.RoleTool},
		Blocks: []session.BlockType{session.BlockText, session.BlockToolCall, session.BlockToolResult}}
	// a reply's record: the calls wait across the turn's assistant
	// messages, and are answered each by a tool message
	turn := format.Caps{Own: []string{"tn"}, Sidechains: true, CallsNeedResults: true, CallsWaitInTurn: true,
		Roles:  []session.Role{u, a, session.RoleTool},
		Blocks: []session.BlockType{session.BlockText, session.BlockToolCall}}
	cases := []adaptCase{
		{name: "next turn: a call left unanswered, what followed hangs from its answer", to: next,
			entries: []*session.Entry{msg("a", "", u), call("b", "a", "c1", "c2"), result("r1", "b", "c1"), msg("d", "r1", u)},
			want:    []string{"a< user", "b<a assistant tool_call tool_call", "r1<b tool", "sesstool-no-result:c2<r1 user tool_result", "d<sesstool-no-result:c2 user"},
			lost:    []string{"1 tool_call-block converted"}, why: []string{"tool_call-block converted: answered"}},
		{name: "next turn: an assistant message closes the turn; the end answers what is left", to: next,
			entries: []*session.Entry{call("b", "", "c1"), msg("x", "b", a), call("y", "x", "c9")},
			want:    []string{"b< assistant tool_call", "sesstool-no-result:c1<b user tool_result", "x<sesstool-no-result:c1 assistant", "y<x assistant tool_call", "sesstool-no-result:c9<y user tool_result"},
			lost:    []string{"2 tool_call-block converted"}},
		{name: "next turn: a user message answering by its blocks needs nothing", to: next,
			entries: []*session.Entry{call("b", "", "c1"), answering(msg("d", "b", u), "c1")},
			want:    []string{"b< assistant tool_call", "d<b user tool_result"}},
		{name: "turn: an assistant message joins it; a user message ends it", to: turn,
			entries: []*session.Entry{call("b", "", "c1"), call("b2", "b", "c2"), result("r2", "b2", "c2"), msg("d", "r2", u)},
			want:    []string{"b< assistant tool_call", "b2<b assistant tool_call", "r2<b2 tool", "sesstool-no-result:c1<r2 tool", "d<sesstool-no-result:c1 user"},
			lost:    []string{"1 tool_call-block converted"}},
		{name: "turn: a result of another call ends it", to: turn,
			entries: []*session.Entry{call("b", "", "c1"), result("rx", "b", "cx")},
			want:    []string{"b< assistant tool_call", "sesstool-no-result:c1<b tool", "rx<sesstool-no-result:c1 tool"},
			lost:    []string{"1 tool_call-block converted"}},
		{name: "every call answered: nothing added", to: next,
			entries: []*session.Entry{call("b", "", "c1"), result("r1", "b", "c1"), msg("d", "r1", u)},
			want:    []string{"b< assistant tool_call", "r1<b tool", "d<r1 user"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}
