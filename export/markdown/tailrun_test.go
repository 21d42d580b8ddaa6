package markdown

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

// A run's markers written after the conversation's last entry are the
// transcript's Tail (shown only with every record), but where the run is
// shown does not depend on them: a run whose call is found stays inside
// that call, one whose call is not found goes under the closing heading,
// with or without --all-records.
func TestRunMarkersAfterShownLeaf(t *testing.T) {
	msg := func(id, parent, side string, role session.Role, blocks ...session.Block) *session.Entry {
		if len(blocks) == 0 {
			blocks = []session.Block{{Type: session.BlockText, Text: "text of " + id}}
		}
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Sidechain: side,
			Message: &session.Message{Role: role, Content: blocks}}
	}
	const lost = "## Sub-agent runs whose tool call was not found"
	for _, tc := range []struct {
		name, call string // the call the run's marker names
		inside     bool   // the run is shown inside call c1
	}{
		{"linked", "c1", true},
		{"call not found", "nowhere", false},
	} {
		for _, all := range []bool{false, true} {
			call := session.Block{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "Task"}
			res := msg("res", "a", "", session.RoleTool)
			res.Message.ToolCallID = "c1"
			s := &session.Session{Entries: []*session.Entry{
				msg("u", "", "", session.RoleUser),
				msg("a", "u", "", session.RoleAssistant, call),
				res,
				msg("z", "res", "", session.RoleAssistant),
				// after the shown leaf z: the run's markers, then its entries
				{Kind: session.KindSubagent, ID: "s", ParentID: "z", Subagent: &session.Subagent{ID: "run", ParentToolCallID: tc.call, AgentType: "Explore"}},
				{Kind: session.KindSubagentEnd, ID: "e", ParentID: "s", Subagent: &session.Subagent{ID: "run"}},
				msg("r1", "", "run", session.RoleUser),
				msg("r2", "r1", "run", session.RoleAssistant),
			}}
			tr, err := transcript.New(s, "")
			if err != nil {
				t.Fatal(err)
			}
			if tr.Leaf == nil || tr.Leaf.ID != "z" || len(tr.Tail) != 2 {
				t.Fatalf("%s: shown leaf %v, tail of %d; want z and the 2 markers", tc.name, tr.Leaf, len(tr.Tail))
			}
			tr.AllRecords = all
			var b bytes.Buffer
			if err := Write(&b, tr); err != nil {
				t.Fatal(err)
			}
			md := b.String()
			run := strings.Index(md, "<summary>Sub-agent: Explore")
			last := strings.Index(md, "text of z")
			if run < 0 || last < 0 {
				t.Fatalf("%s (all records %v): no run or no last reply in\n%s", tc.name, all, md)
			}
			// inside the call: the run's fold comes before the reply that
			// follows the call, and no closing heading is written
			if got := run < last && !strings.Contains(md, lost); got != tc.inside {
				t.Errorf("%s (all records %v): run inside its call = %v, want %v:\n%s", tc.name, all, got, tc.inside, md)
			}
			if !strings.Contains(md, "text of r2") {
				t.Errorf("%s (all records %v): the run's reply is not shown:\n%s", tc.name, all, md)
			}
			// the markers' own cards: never for a linked run (its fold
			// says what they would), else only with every record
			cards := strings.Count(md, "\n### Sub-agent\n")
			want := 0
			if all && !tc.inside {
				want = 2
			}
			if cards != want {
				t.Errorf("%s (all records %v): %d Sub-agent cards, want %d:\n%s", tc.name, all, cards, want, md)
			}
		}
	}
}
