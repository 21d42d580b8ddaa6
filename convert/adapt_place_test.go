package convert

import (
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// placeRules declares where the target can place what it holds (ash's rules):
// results of text only and after their call, runs started by a tool call.
var placeRules = format.Caps{Own: []string{"pl"}, Sidechains: true,
	Kinds:           []session.Kind{session.KindSubagent, session.KindSubagentEnd},
	Roles:           []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool, session.RoleCustom},
	ToolCallOn:      []session.Role{session.RoleAssistant},
	Blocks:          []session.BlockType{session.BlockText, session.BlockToolCall, session.BlockImage},
	ResultsTextOnly: "results are text only", ResultsNeedCall: "no call kept", RunsNeedCall: "no tool call started the run"}

// summarising writes compactions as messages of its own (OpenCode's rules).
var summarising = format.Caps{Own: []string{"sm"}, KindsConverted: []session.Kind{session.KindCompaction},
	Roles: []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool}, Fallback: format.FallbackUser,
	Blocks:              []session.BlockType{session.BlockText, session.BlockToolCall},
	CompactionConverted: "a summary message", FirstKeptMoved: "the message before it is kept"}

func compaction(id, parent, firstKept string) *session.Entry {
	e := kind(id, parent, session.KindCompaction)
	e.Compaction = &session.Compaction{Summary: "sum", FirstKeptID: firstKept}
	return e
}

func call(id, parent, callID string) *session.Entry {
	e := msg(id, parent, session.RoleAssistant)
	e.Message.Content = append(e.Message.Content, session.Block{Type: session.BlockToolCall, ToolCallID: callID, ToolName: "t"})
	return e
}

func result(id, parent, callID string) *session.Entry {
	e := msg(id, parent, session.RoleTool)
	e.Message.ToolCallID = callID
	return e
}

func custom(id, parent string, role session.Role) *session.Entry {
	e := msg(id, parent, role)
	e.Kind = session.KindCustomMessage
	return e
}

func asCustom(e *session.Entry) *session.Entry { e.Kind = session.KindCustomMessage; return e }

func run(id, parent string, k session.Kind, runID, callID string) *session.Entry {
	e := kind(id, parent, k)
	e.Subagent = &session.Subagent{ID: runID, ParentToolCallID: callID}
	return e
}

func onRun(e *session.Entry, runID string) *session.Entry { e.Sidechain = runID; return e }

// TestAdaptPlace: what a target holds by kind, role and block is still
// dropped, and counted with the declared reason, where it has no place.
func TestAdaptPlace(t *testing.T) {
	u, a := session.RoleUser, session.RoleAssistant
	none := placeRules
	none.ResultsTextOnly, none.ResultsNeedCall, none.RunsNeedCall = "", "", ""
	cases := []adaptCase{
		{name: "a result keeps its text only", to: placeRules,
			entries: []*session.Entry{call("a", "", "c1"), with(result("r", "a", "c1"), session.BlockImage), with(msg("b", "r", u), session.BlockImage)},
			want:    []string{"a< assistant tool_call", "r<a tool", "b<r user image"},
			lost:    []string{"1 image-block dropped"}, why: []string{"image-block dropped: results are text only"}},
		{name: "a run no tool call started is dropped whole", to: placeRules,
			entries: []*session.Entry{call("a", "", "c1"),
				run("s1", "a", session.KindSubagent, "w", ""), onRun(msg("w1", "", u), "w"), run("e1", "a", session.KindSubagentEnd, "w", ""),
				run("s2", "a", session.KindSubagent, "t", "c1"), onRun(msg("t1", "", u), "t"), run("e2", "s2", session.KindSubagentEnd, "t", "c1")},
			want: []string{"a< assistant tool_call", "s2<a subagent", "t1< user", "e2<s2 subagent_end"},
			lost: []string{"1 message-entry dropped", "1 subagent-entry dropped", "1 subagent_end-entry dropped"},
			why:  []string{"message-entry dropped: no tool call started the run", "subagent-entry dropped: no tool call started the run", "subagent_end-entry dropped: no tool call started the run"}},
		{name: "compactions converted, first kept moved unless the message before", to: summarising,
			entries: []*session.Entry{msg("a", "", u), msg("b", "a", a), compaction("k1", "b", "b"), msg("c", "k1", u), compaction("k2", "c", "a"), compaction("k3", "k2", "")},
			want:    []string{"a< user", "b<a assistant", "k1<b compaction", "c<k1 user", "k2<c compaction", "k3<k2 compaction"},
			lost:    []string{"3 compaction converted", "1 compaction-first-kept moved"},
			why:     []string{"compaction converted: a summary message", "compaction-first-kept moved: the message before it is kept"}},
		{name: "a compaction after a tool result keeps its call's message", to: summarising,
			entries: []*session.Entry{call("a", "", "c1"), result("r", "a", "c1"), compaction("k", "r", "a")},
			want:    []string{"a< assistant tool_call", "r<a tool", "k<r compaction"},
			lost:    []string{"1 compaction converted"}, why: []string{"compaction converted: a summary message"}},
		{name: "a target that declares none keeps them all", to: none,
			entries: []*session.Entry{result("r0", "", "c2"), custom("x", "r0", a), with(result("r", "x", "c1"), session.BlockImage), run("s1", "r", session.KindSubagent, "w", "")},
			want:    []string{"r0< tool", "x<r0 assistant", "r<x tool image", "s1<r subagent"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}
