package convert

import (
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// TestAdaptJoinsTurn: where a turn's calls are answered right after it
// (Caps.TurnJoinsWhy), an assistant message among its results joins it,
// and the results follow the joined turn.
func TestAdaptJoinsTurn(t *testing.T) {
	u, a := session.RoleUser, session.RoleAssistant
	call := func(id, parent string, calls ...string) *session.Entry {
		e := msg(id, parent, a)
		for _, c := range calls {
			e.Message.Content = append(e.Message.Content, session.Block{Type: session.BlockToolCall, ToolCallID: c})
		}
		return e
	}
	result := func(id, parent, callID string) *session.Entry {
		e := msg(id, parent, session.RoleTool)
		e.Message.ToolCallID = callID
		return e
	}
	joins := format.Caps{Own: []string{"jn"}, Linear: true, TurnJoinsWhy: "joined",
		Roles:  []session.Role{u, a, session.RoleTool},
		Blocks: []session.BlockType{session.BlockText, session.BlockToolCall}}
	cases := []adaptCase{
		{name: "an assistant message among the results joins the turn", to: joins,
			entries: []*session.Entry{msg("a", "", u), call("b", "a", "c1", "c2"), result("r1", "b", "c1"), call("x", "r1", "c3"), result("r2", "x", "c2"), result("r3", "r2", "c3"), msg("d", "r3", u)},
			want:    []string{"a< user", "b<a assistant tool_call tool_call tool_call", "r1<b tool", "r2<x tool", "r3<r2 tool", "d<r3 user"},
			lost:    []string{"1 tool-call converted"}, why: []string{"tool-call converted: joined"}},
		{name: "an entry of another kind ends the turn, its calls unanswered", to: joins,
			entries: []*session.Entry{call("b", "", "c1", "c2"), result("r1", "b", "c1"), msg("d", "r1", u), msg("e", "d", a)},
			want:    []string{"b< assistant tool_call tool_call", "r1<b tool", "d<r1 user", "e<d assistant"}},
		{name: "an assistant message after every call is answered opens its own turn", to: joins,
			entries: []*session.Entry{call("b", "", "c1"), result("r1", "b", "c1"), msg("x", "r1", a)},
			want:    []string{"b< assistant tool_call", "r1<b tool", "x<r1 assistant"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}
