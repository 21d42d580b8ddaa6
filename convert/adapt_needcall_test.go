package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// TestCallBeforeResult: a target whose tool results need their call before
// them drops a result (a tool message or a tool_result block) whose call
// no kept message made, counted; a target without the rule keeps it.
func TestCallBeforeResult(t *testing.T) {
	need := format.Caps{Linear: true, Roles: []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool},
		ToolCallOn: []session.Role{session.RoleAssistant}, CallBeforeResult: true,
		Blocks: []session.BlockType{session.BlockText, session.BlockToolCall, session.BlockToolResult}}
	free := need
	free.CallBeforeResult = false
	call := func(id, parent, call string) *session.Entry {
		e := msg(id, parent, session.RoleAssistant)
		e.Message.Content = []session.Block{{Type: session.BlockToolCall, ToolCallID: call}}
		return e
	}
	result := func(id, parent, call string) *session.Entry {
		e := msg(id, parent, session.RoleTool)
		e.Message.ToolCallID = call
		return e
	}
	blocks := func(id, parent string, calls ...string) *session.Entry {
		e := msg(id, parent, session.RoleUser)
		for _, c := range calls {
			e.Message.Content = append(e.Message.Content, session.Block{Type: session.BlockToolResult, ToolCallID: c})
		}
		return e
	}
	onlyBlocks := func(id, parent string, calls ...string) *session.Entry {
		e := blocks(id, parent, calls...)
		e.Message.Content = e.Message.Content[1:]
		return e
	}
	for _, tc := range []struct {
		name    string
		to      format.Caps
		entries []*session.Entry
		want    []string
		lost    []string
	}{
		{"answered", need, []*session.Entry{call("a", "", "c1"), result("b", "a", "c1")}, []string{"a< assistant tool_call", "b<a tool"}, nil},
		{"orphan tool message", need, []*session.Entry{call("a", "", "c1"), result("b", "a", "c2"), msg("c", "b", session.RoleUser)},
			[]string{"a< assistant tool_call", "c<a user"}, []string{"1 tool-result dropped: its tool call is not in a message x keeps"}},
		{"orphan blocks", need, []*session.Entry{call("a", "", "c1"), blocks("b", "a", "c1", "c2", "c3")},
			[]string{"a< assistant tool_call", "b<a user tool_result"}, []string{"2 tool-result dropped: its tool call is not in a message x keeps"}},
		{"a message of orphan results only", need, []*session.Entry{call("a", "", "c1"), onlyBlocks("b", "a", "c2"), msg("c", "b", session.RoleAssistant)},
			[]string{"a< assistant tool_call", "c<a assistant"}, []string{"1 tool-result dropped: its tool call is not in a message x keeps"}},
		{"call after its result", need, []*session.Entry{result("a", "", "c1"), call("b", "a", "c1")},
			[]string{"b< assistant tool_call"}, []string{"1 tool-result dropped: its tool call is not in a message x keeps"}},
		{"no rule", free, []*session.Entry{result("a", "", "c1")}, []string{"a< tool"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{Source: session.Source{Origin: "src"}}, Entries: tc.entries}
			lost := &loss.Counter{}
			r, err := Adapt(&session.SliceReader{S: s}, nil, tc.to, "x", lost)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, describe(t, r)); d != "" {
				t.Errorf("entries (-want +got):\n%s", d)
			}
			var items []string
			for _, it := range lost.Items() {
				items = append(items, fmtItem(it))
			}
			if d := cmp.Diff(tc.lost, items); d != "" {
				t.Errorf("losses (-want +got):\n%s", d)
			}
		})
	}
}
