package convert

import (
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// TestResultsNeedCall: a target whose tool results need their call kept
// before them (Caps.ResultsNeedCall) drops a result (a tool message, a
// tool's extension message or a tool_result block) whose call no kept
// message of a role that carries calls made, counted with its reason, and
// what hung from it hangs from its parent; a target without the rule
// keeps it.
func TestResultsNeedCall(t *testing.T) {
	u, a := session.RoleUser, session.RoleAssistant
	need := format.Caps{Linear: true, Roles: []session.Role{u, a, session.RoleTool, session.RoleSystem},
		ToolCallOn: []session.Role{a}, ResultsNeedCall: "no call kept",
		Blocks: []session.BlockType{session.BlockText, session.BlockToolCall, session.BlockToolResult}}
	free := need
	free.ResultsNeedCall = ""
	callOn := func(e *session.Entry, id string) *session.Entry {
		e.Message.Content = []session.Block{{Type: session.BlockToolCall, ToolCallID: id}}
		return e
	}
	blocks := func(id, parent string, calls ...string) *session.Entry {
		e := msg(id, parent, u)
		for _, c := range calls {
			e.Message.Content = append(e.Message.Content, session.Block{Type: session.BlockToolResult, ToolCallID: c})
		}
		return e
	}
	cases := []adaptCase{
		{name: "answered", to: need, entries: []*session.Entry{call("a", "", "c1"), result("b", "a", "c1")},
			want: []string{"a< assistant tool_call", "b<a tool"}},
		{name: "a tool message whose call is not kept; children follow", to: need,
			entries: []*session.Entry{call("a", "", "c1"), result("b", "a", "c2"), msg("c", "b", u)},
			want:    []string{"a< assistant tool_call", "c<a user"},
			lost:    []string{"1 tool-result dropped"}, why: []string{"tool-result dropped: no call kept"}},
		{name: "a tool's extension message whose call is not kept", to: need,
			entries: []*session.Entry{call("a", "", "c1"), asCustom(result("b", "a", "c2")), asCustom(result("r", "b", "c1"))},
			want:    []string{"a< assistant tool_call", "r<a tool"},
			lost:    []string{"1 tool-result dropped"}},
		{name: "tool_result blocks whose call is not kept", to: need,
			entries: []*session.Entry{call("a", "", "c1"), blocks("b", "a", "c1", "c2", "c3")},
			want:    []string{"a< assistant tool_call", "b<a user tool_result"},
			lost:    []string{"2 tool-result dropped"}, why: []string{"tool-result dropped: no call kept"}},
		{name: "a call after its result", to: need, entries: []*session.Entry{result("a", "", "c1"), call("b", "a", "c1")},
			want: []string{"b< assistant tool_call"}, lost: []string{"1 tool-result dropped"}},
		{name: "a call of a role that carries none makes no result kept", to: need,
			entries: []*session.Entry{callOn(msg("s", "", session.RoleSystem), "c1"), result("r", "s", "c1")},
			want:    []string{"s< system tool_call"}, lost: []string{"1 tool-result dropped"}},
		{name: "a message of nothing but results whose call is not kept is dropped whole", to: need,
			entries: []*session.Entry{call("a", "", "c1"), func() *session.Entry {
				e := blocks("b", "a", "c2")
				e.Message.Content = e.Message.Content[1:]
				return e
			}(), msg("c", "b", u)},
			want: []string{"a< assistant tool_call", "c<a user"}, lost: []string{"1 tool-result dropped"}},
		{name: "a reply's results after its own calls", to: need,
			entries: []*session.Entry{func() *session.Entry {
				e := call("a", "", "c1")
				e.Message.Content = append(e.Message.Content, session.Block{Type: session.BlockToolResult, ToolCallID: "c1"},
					session.Block{Type: session.BlockToolResult, ToolCallID: "c2"})
				return e
			}()},
			want: []string{"a< assistant tool_call tool_result"}, lost: []string{"1 tool-result dropped"}},
		{name: "no rule", to: free, entries: []*session.Entry{result("a", "", "c1"), blocks("b", "a", "c2")},
			want: []string{"a< tool", "b<a user tool_result"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}
