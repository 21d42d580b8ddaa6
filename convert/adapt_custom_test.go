package convert

import (
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// TestCustomMessages: what becomes of another layout's extension message
// is declared once (Caps.CustomMessages) and done once: kept as its
// message, written as a user message where the target lacks its role, or
// dropped with the declared reason (as an extension message, or as the
// entry it is), a tool's result kept where the target keeps those; what
// hung from a dropped one hangs from its parent. Undeclared, the writer
// gets it as read.
func TestCustomMessages(t *testing.T) {
	u, a := session.RoleUser, session.RoleAssistant
	base := format.Caps{Own: []string{"cm"}, Linear: true, Roles: []session.Role{u, a, session.RoleTool},
		ToolCallOn: []session.Role{a}, Blocks: []session.BlockType{session.BlockText, session.BlockToolCall}}
	rule := func(r format.CustomRule) format.Caps { c := base; c.CustomMessages = r; return c }
	asMessage := rule(format.CustomRule{As: format.CustomAsMessage})
	asUser := rule(format.CustomRule{As: format.CustomAsUser, Why: "a user message"})
	dropped := rule(format.CustomRule{As: format.CustomDropped, Why: "no extension messages"})
	keepResults := rule(format.CustomRule{As: format.CustomDropped, Why: "no extension messages", KeepResults: true})
	asEntry := rule(format.CustomRule{As: format.CustomDropped, Why: "no such line", AsEntry: true})
	unworded := rule(format.CustomRule{As: format.CustomDropped})
	listed := base // KindsDropped is not the rule for extension messages
	listed.KindsDropped = []session.Kind{session.KindCustomMessage}
	// a call, a tool's result carried as an extension message, one of a
	// role the target lacks, one of a role it holds, a message after them
	entries := func() []*session.Entry {
		return []*session.Entry{call("a", "", "c1"), asCustom(result("r", "a", "c1")), custom("x", "r", session.RoleCustom),
			custom("y", "x", a), msg("b", "y", u)}
	}
	all := []string{"a< assistant tool_call", "r<a tool", "x<r custom", "y<x assistant", "b<y user"}
	cases := []adaptCase{
		{name: "undeclared: as read", to: base, entries: entries(), want: all},
		{name: "listed in KindsDropped: as read", to: listed, entries: entries(), want: all},
		{name: "kept as its message", to: asMessage, entries: entries(), want: all},
		{name: "a role the target lacks as a user message", to: asUser, entries: entries(),
			want: []string{"a< assistant tool_call", "r<a tool", "x<r user", "y<x assistant", "b<y user"},
			lost: []string{"1 custom-message converted"}, why: []string{"custom-message converted: a user message"}},
		{name: "dropped, a tool's result too", to: dropped, entries: entries(),
			want: []string{"a< assistant tool_call", "b<a user"},
			lost: []string{"3 custom-message dropped"}, why: []string{"custom-message dropped: no extension messages"}},
		{name: "dropped, a tool's result kept", to: keepResults, entries: entries(),
			want: []string{"a< assistant tool_call", "r<a tool", "b<r user"},
			lost: []string{"2 custom-message dropped"}, why: []string{"custom-message dropped: no extension messages"}},
		{name: "dropped, counted as the entry it is", to: asEntry, entries: entries(),
			want: []string{"a< assistant tool_call", "b<a user"},
			lost: []string{"3 custom_message-entry dropped"}, why: []string{"custom_message-entry dropped: no such line"}},
		{name: "dropped without the layout's words", to: unworded, entries: []*session.Entry{custom("x", "", u)},
			lost: []string{"1 custom-message dropped"}, why: []string{"custom-message dropped: x has no extension messages"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}
