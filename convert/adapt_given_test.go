package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// TestResultsInCall: where a tool result is written into its call's part,
// found anywhere in the session, a result whose call no message given
// names, and a second result of one call, are counted dropped once the
// session is given whole; a result before its call, or in a block, has its
// place. A target that does not declare it counts none.
func TestResultsInCall(t *testing.T) {
	inCall := format.Caps{Roles: []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool},
		ToolCallOn:    []session.Role{session.RoleAssistant},
		Blocks:        []session.BlockType{session.BlockText, session.BlockToolCall, session.BlockToolResult},
		ResultsInCall: &format.Rule{Action: loss.Dropped, Why: "no call"}}
	call := func(id, parent, callID string) *session.Entry {
		e := msg(id, parent, session.RoleAssistant)
		e.Message.Content = []session.Block{{Type: session.BlockToolCall, ToolCallID: callID, ToolName: "t"}}
		return e
	}
	result := func(id, parent, callID string) *session.Entry {
		e := msg(id, parent, session.RoleTool)
		e.Message.ToolCallID = callID
		return e
	}
	block := func(id, parent, callID string) *session.Entry {
		e := msg(id, parent, session.RoleUser)
		e.Message.Content = []session.Block{{Type: session.BlockToolResult, ToolCallID: callID, Text: "out"}}
		return e
	}
	in := func() []*session.Entry {
		return []*session.Entry{
			call("a", "", "c1"), result("r1", "a", "c1"),
			result("r2", "r1", "c1"), // a second result of c1
			result("r3", "r2", "c9"), // no call names c9
			block("b1", "r3", "c2"),  // before its call
			call("a2", "b1", "c2"),   //
			block("b2", "a2", "c3"),  // no call names c3
		}
	}
	for _, tc := range []struct {
		name string
		to   format.Caps
		want []string
	}{
		{"declared", inCall, []string{"3 tool-result dropped: no call"}},
		{"not declared", format.Caps{Roles: inCall.Roles, ToolCallOn: inCall.ToolCallOn, Blocks: inCall.Blocks}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, items := adaptItems(t, tc.to, session.Meta{ID: "s"}, in())
			if len(got) != len(in()) {
				t.Errorf("%d entries given, want %d: the writer places the results", len(got), len(in()))
			}
			if d := cmp.Diff(tc.want, items); d != "" {
				t.Errorf("losses (-want +got):\n%s", d)
			}
		})
	}
}
