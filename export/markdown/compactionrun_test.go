package markdown

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

// compactionRunSession is a conversation compacted once, whose compaction
// agent's run (which no call starts) comes after the last line, as Claude
// Code's reader gives agent-acompact-*: its first entries hang from the
// entry the conversation was compacted after.
func compactionRunSession() *session.Session {
	const origin = "compaction-run-test"
	session.DeclareCompactionRun(origin, func(s session.Subagent) bool { return strings.HasPrefix(s.ID, "agent-acompact-") })
	src := session.Source{Origin: origin}
	msg := func(id, parent, side string, role session.Role, text string) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Sidechain: side, Source: src,
			Message: &session.Message{Role: role, Content: []session.Block{{Type: session.BlockText, Text: text}}}}
	}
	return &session.Session{Meta: session.Meta{ID: "s"}, Entries: []*session.Entry{
		msg("u1", "", "", session.RoleUser, "build it"),
		msg("a1", "u1", "", session.RoleAssistant, "built"),
		{Kind: session.KindCompaction, ID: "c1", ParentID: "a1", Source: src, Compaction: &session.Compaction{Summary: "they built it"}},
		msg("u2", "c1", "", session.RoleUser, "now test it"),
		msg("a2", "u2", "", session.RoleAssistant, "tested"),
		{Kind: session.KindSubagent, ID: "subagent:acompact-1", ParentID: "a2", Source: src, Subagent: &session.Subagent{ID: "agent-acompact-1"}},
		msg("r1", "a1", "agent-acompact-1", session.RoleUser, "Your task is to create a detailed summary"),
		msg("r2", "r1", "agent-acompact-1", session.RoleAssistant, "they built it"),
	}}
}

// A compaction agent's run is shown inside the compaction it wrote, in the
// held and in the streamed transcript alike, not under the runs whose
// call is not found; its start card is not shown at the end.
func TestCompactionRun(t *testing.T) {
	s := compactionRunSession()
	tr, err := transcript.New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	runs := tr.Runs()
	if len(runs) != 1 || !runs[0].Compaction || runs[0].Host != 2 || len(tr.Orphans()) != 0 || runs[0].Label("") != "compaction" {
		t.Fatalf("runs %+v, orphans %v", runs[0], tr.Orphans())
	}
	if tr.Leaf == nil || tr.Leaf.ID != "a2" {
		t.Errorf("leaf %v, want a2", tr.Leaf)
	}
	var held bytes.Buffer
	if err := WriteTools(&held, tr, ToolsFull); err != nil {
		t.Fatal(err)
	}
	streamed, err := stream(t, s, "", ToolsFull)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(held.Bytes(), streamed) {
		t.Errorf("held and streamed differ:\n%s\n----\n%s", held.Bytes(), streamed)
	}
	md := held.String()
	c, f, u := strings.Index(md, "### Compaction"), strings.Index(md, "<summary>Sub-agent: compaction — the agent that wrote this summary</summary>"), strings.Index(md, "now test it")
	if c < 0 || f < c || u < f || !strings.Contains(md[f:u], "Your task is to create a detailed summary") {
		t.Errorf("the run is not inside the compaction:\n%s", md)
	}
	if strings.Contains(md, "tool call was not found") || strings.Contains(md, "### Sub-agent") {
		t.Errorf("the run is shown as a lost sub-agent:\n%s", md)
	}
}
