package claude

import (
	"os"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// A tool call of another layout with no result (a Codex web search) gets
// a result line saying so, as the next user message, so Claude Code keeps
// the message holding the call when it resumes; one that has its result
// gets nothing more.
func TestToolCallsWithoutResultAnswered(t *testing.T) {
	user := func(id, parent, text string) *session.Entry {
		return &session.Entry{ID: id, ParentID: parent, Kind: session.KindMessage, Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: text}}}}
	}
	call := func(id, parent string, calls ...string) *session.Entry {
		m := &session.Message{Role: session.RoleAssistant, Content: []session.Block{{Type: session.BlockText, Text: "working"}}}
		for _, c := range calls {
			m.Content = append(m.Content, session.Block{Type: session.BlockToolCall, ToolCallID: c, ToolName: "web_search", Arguments: []byte(`{}`)})
		}
		return &session.Entry{ID: id, ParentID: parent, Kind: session.KindMessage, Message: m}
	}
	result := func(id, parent, callID string) *session.Entry {
		return &session.Entry{ID: id, ParentID: parent, Kind: session.KindMessage, Message: &session.Message{Role: session.RoleTool, ToolCallID: callID, Content: []session.Block{{Type: session.BlockText, Text: "out"}}}}
	}
	cases := []struct {
		name      string
		entries   []*session.Entry
		answered  int // results written for calls without one
		userLines int
	}{
		{"a call without result, then a prompt", []*session.Entry{user("u1", "", "hi"), call("a1", "u1", "c1"), user("u2", "a1", "next")}, 1, 3},
		{"a call with no id and no result", []*session.Entry{user("u1", "", "hi"), call("a1", "u1", ""), user("u2", "a1", "next")}, 1, 3},
		{"one of two answered", []*session.Entry{user("u1", "", "hi"), call("a1", "u1", "c1", "c2"), result("r1", "a1", "c1"), user("u2", "r1", "next")}, 1, 4},
		{"the last message", []*session.Entry{user("u1", "", "hi"), call("a1", "u1", "c1")}, 1, 2},
		{"answered", []*session.Entry{user("u1", "", "hi"), call("a1", "u1", "c1"), result("r1", "a1", "c1"), user("u2", "r1", "next")}, 0, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{ID: "s1", Cwd: "/home/dev/app", Source: session.Source{Origin: "codex"}}, Entries: c.entries}
			for _, e := range s.Entries {
				e.Origin = "codex"
			}
			lost := &loss.Counter{}
			files, err := convert.Write(Format{}, &session.SliceReader{S: s}, t.TempDir(), format.WriteOptions{}, lost)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := os.ReadFile(files[0])
			if n := strings.Count(string(raw), convert.NoResult); n != c.answered {
				t.Errorf("%d calls answered with no result, want %d:\n%s", n, c.answered, raw)
			}
			if n := strings.Count(string(raw), `"type":"user"`); n != c.userLines {
				t.Errorf("%d user lines, want %d:\n%s", n, c.userLines, raw)
			}
			if n := strings.Count(string(raw), `"parentUuid":null`); n != 1 {
				t.Errorf("%d roots, want one chain:\n%s", n, raw)
			}
			rep := &report.Report{}
			if err := (Format{}).Validate(files[0], rep, format.ValidateOptions{}); err != nil || len(rep.Findings()) > 0 {
				t.Errorf("the file does not validate clean: %v %v", err, rep.Findings())
			}
			n := 0
			for _, it := range lost.Items() {
				if it.Kind == loss.Block(session.BlockToolCall) && it.Action == loss.Converted {
					n += it.Count
				}
			}
			if n != c.answered {
				t.Errorf("%d answered calls named, want %d: %v", n, c.answered, lost.Items())
			}
		})
	}
}
