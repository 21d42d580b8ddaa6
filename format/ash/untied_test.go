package ash

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// A sub-agent run no tool call started (Claude Code's warm-up agent: its
// parent_tool_use_id is empty) is left out and named, where it made the
// written session fail ash's own check; a run a call started is kept.
func TestUntiedSubagentRunLeftOut(t *testing.T) {
	msg := func(id, parent, side string, role session.Role, text string) *session.Entry {
		return &session.Entry{ID: id, ParentID: parent, Sidechain: side, Kind: session.KindMessage,
			Message: &session.Message{Role: role, Content: []session.Block{{Type: session.BlockText, Text: text}}}}
	}
	run := func(id, parent, call string) []*session.Entry {
		side := "agent-" + id
		return []*session.Entry{
			{ID: "m-" + id, ParentID: parent, Kind: session.KindSubagent, Subagent: &session.Subagent{ID: side, ParentToolCallID: call, AgentType: "agent"}},
			msg("u-"+id, "", side, session.RoleUser, "warm up"),
			msg("a-"+id, "u-"+id, side, session.RoleAssistant, "ready"),
			{ID: "e-" + id, ParentID: "m-" + id, Kind: session.KindSubagentEnd, Subagent: &session.Subagent{ID: side}},
		}
	}
	call := &session.Entry{ID: "a1", ParentID: "u1", Kind: session.KindMessage, Message: &session.Message{Role: session.RoleAssistant,
		Content: []session.Block{{Type: session.BlockToolCall, ToolCallID: "t1", ToolName: "Task", Arguments: []byte(`{}`)}}}}
	result := &session.Entry{ID: "r1", ParentID: "a1", Kind: session.KindMessage, Message: &session.Message{Role: session.RoleTool, ToolCallID: "t1",
		Content: []session.Block{{Type: session.BlockText, Text: "done"}}}}
	cases := []struct {
		name    string
		entries []*session.Entry
		lost    int // entries of untied runs left out
		runs    int // agent_session lines written
	}{
		{"untied", append([]*session.Entry{msg("u1", "", "", session.RoleUser, "hi"), msg("a1", "u1", "", session.RoleAssistant, "hello")}, run("w", "a1", "")...), 4, 0},
		{"tied", append([]*session.Entry{msg("u1", "", "", session.RoleUser, "hi"), call}, append(run("x", "a1", "t1"), result)...), 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{ID: "s1", Source: session.Source{Origin: "claude"}}, Entries: c.entries}
			for _, e := range s.Entries {
				e.Origin = "claude"
			}
			lost := &loss.Counter{}
			out := t.TempDir()
			files, err := convert.Write(Format{}, &session.SliceReader{S: s}, out, format.WriteOptions{}, lost)
			if err != nil {
				t.Fatal(err)
			}
			rep := &report.Report{}
			if err := (Format{}).Validate(files[0], rep, format.ValidateOptions{}); err != nil || rep.Errors() > 0 {
				t.Fatalf("written session does not validate: %v %v", err, rep.Findings())
			}
			raw, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatalf("%v (written: %v)", err, files)
			}
			subs, _ := filepath.Glob(filepath.Join(filepath.Dir(files[0]), "subagents", "*"))
			if len(subs) != c.runs {
				t.Errorf("%d sub-agent files %v, want %d", len(subs), subs, c.runs)
			}
			if n := strings.Count(string(raw), `"agent_session"`); n != c.runs {
				t.Errorf("%d agent_session lines, want %d", n, c.runs)
			}
			n := 0
			for _, it := range lost.Items() {
				if strings.Contains(it.Reason, "started by none") {
					n += it.Count
				}
			}
			if n != c.lost {
				t.Errorf("%d entries named lost as untied, want %d: %v", n, c.lost, lost.Items())
			}
		})
	}
}
