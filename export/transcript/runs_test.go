package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/session"
)

// A run is shown inside the call its subagent entry names: Runs finds the
// entry holding that call, Shown leaves the run's entries and its hosted
// cards out of the path, and a run whose call no entry holds is an orphan.
func TestRuns(t *testing.T) {
	msg := func(id, parent, side string, blocks ...session.Block) *session.Entry {
		if len(blocks) == 0 {
			blocks = []session.Block{{Type: session.BlockText, Text: id}}
		}
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Sidechain: side,
			Message: &session.Message{Role: session.RoleUser, Content: blocks}}
	}
	call := session.Block{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "Task"}
	start := &session.Entry{Kind: session.KindSubagent, ID: "s", ParentID: "a", Subagent: &session.Subagent{ID: "run", ParentToolCallID: "c1", AgentType: "Explore"}}
	end := &session.Entry{Kind: session.KindSubagentEnd, ID: "e", ParentID: "s", Subagent: &session.Subagent{ID: "run"}}
	lost := &session.Entry{Kind: session.KindSubagent, ID: "s2", ParentID: "e", Subagent: &session.Subagent{ID: "other", ParentToolCallID: "nowhere"}}
	s := &session.Session{Entries: []*session.Entry{
		msg("a", "", "", call), start, msg("r1", "", "run"), msg("r2", "r1", "run"), end, lost, msg("b", "s2", ""), msg("x", "", "other"),
		{Kind: session.KindOther, ID: "t1", Sidechain: "copy", Custom: &session.Custom{}}, // not a run: no subagent entry, no message
		{Kind: session.KindSubagent, ID: "s3", ParentID: "b", Subagent: &session.Subagent{ID: "empty", ParentToolCallID: "c1"}},
	}}
	tr, err := New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range tr.Runs() {
		got = append(got, fmt.Sprintf("%s call=%s host=%d start=%d end=%d entries=%v label=%s", r.ID, r.Call, r.Host, r.Start, r.End, r.Entries, r.Label("")))
	}
	want := []string{
		"run call=c1 host=0 start=1 end=4 entries=[2 3] label=Explore",
		"other call=nowhere host=-1 start=5 end=-1 entries=[7] label=other",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Runs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if o := tr.Orphans(); len(o) != 1 || o[0].ID != "other" {
		t.Errorf("Orphans = %v, want the run named other", o)
	}
	// the hosted run's cards are left out; the orphan's card stays; the
	// card of a subagent entry whose run has no entries, last on the path,
	// comes after the shown leaf (b): it is shown with every record
	if got, want := fmt.Sprint(tr.Shown()), "[0 5 6]"; got != want {
		t.Errorf("Shown = %s, want %s", got, want)
	}
	if tr.Leaf == nil || tr.Leaf.ID != "b" {
		t.Errorf("Leaf = %v, want b", tr.Leaf)
	}
	tr.AllRecords = true
	if got, want := fmt.Sprint(tr.Shown()), "[0 5 6 9]"; got != want {
		t.Errorf("with every record, Shown = %s, want %s", got, want)
	}
}
