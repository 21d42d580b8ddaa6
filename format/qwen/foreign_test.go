package qwen

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// foreignSession is a session of another layout (tree) with the given
// entries chained in order.
func foreignSession(id string, es ...*session.Entry) *session.Session {
	t0 := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	s := &session.Session{Meta: session.Meta{ID: id, Cwd: "/w", Created: session.Time{T: t0}, Source: session.Source{Origin: "tree"}}}
	for i, e := range es {
		e.Origin = "tree"
		e.ID = string(rune('a' + i))
		if i > 0 {
			e.ParentID = string(rune('a' + i - 1))
		}
		e.Time = session.Time{T: t0.Add(time.Duration(i) * time.Second)}
		if e.Kind == "" {
			e.Kind = session.KindMessage
		}
		s.Entries = append(s.Entries, e)
	}
	return s
}

func msg(role session.Role, blocks ...session.Block) *session.Entry {
	return &session.Entry{Message: &session.Message{Role: role, Content: blocks}}
}

func call(id string) session.Block {
	return session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: "sh", Arguments: json.RawMessage(`{}`)}
}

func result(id string) *session.Entry {
	e := msg(session.RoleTool, session.Block{Type: session.BlockText, Text: "out " + id})
	e.Message.ToolCallID, e.Message.ToolName = id, "sh"
	return e
}

func text(s string) session.Block { return session.Block{Type: session.BlockText, Text: s} }

// line is what the test reads of one written line: its type, its parts'
// call and response ids, whether it has a message, the session id.
func lineSummary(l gjson.Result) string {
	var b strings.Builder
	b.WriteString(l.Get("type").String())
	if !l.Get("message").Exists() {
		b.WriteString(" (no message)")
	}
	l.Get("message.parts").ForEach(func(_, p gjson.Result) bool {
		switch {
		case p.Get("functionCall").Exists():
			b.WriteString(" call:" + p.Get("functionCall.id").String())
		case p.Get("functionResponse").Exists():
			b.WriteString(" result:" + p.Get("functionResponse.id").String())
		default:
			b.WriteString(" text")
		}
		return true
	})
	return b.String()
}

// resumable is a session id qwen --resume takes (Qwen Code 0.24.4's
// session-id.ts).
var resumable = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// A session of another layout is written as Qwen Code 0.24.4 resumes it
// (each case a behaviour Qwen Code showed when resuming; docs/qwen.md).
func TestWriteForeign(t *testing.T) {
	for _, c := range []struct {
		name    string
		s       *session.Session
		lines   []string
		session string // the sessionId written ("" the source's)
		loss    loss.Kind
	}{
		{
			name:    "a UUIDv7 session id is derived as one Qwen Code resumes",
			s:       foreignSession("0195f0a0-0000-7000-8000-000000000001", msg(session.RoleUser, text("hi"))),
			lines:   []string{"user text"},
			session: SessionID(&session.Meta{ID: "0195f0a0-0000-7000-8000-000000000001"}),
		},
		{
			name:  "a UUIDv4 session id is kept",
			s:     foreignSession("5d0c6a4e-3b7e-4f38-9a51-2f8d0c1e7a10", msg(session.RoleUser, text("hi"))),
			lines: []string{"user text"},
		},
		{
			name:  "an empty assistant message is a turn with no message",
			s:     foreignSession("5d0c6a4e-3b7e-4f38-9a51-2f8d0c1e7a10", msg(session.RoleUser, text("hi")), msg(session.RoleAssistant, text("ok")), msg(session.RoleAssistant)),
			lines: []string{"user text", "assistant text", "assistant (no message)"},
		},
		{
			name: "an assistant message among a turn's results joins the turn",
			s: foreignSession("5d0c6a4e-3b7e-4f38-9a51-2f8d0c1e7a10", msg(session.RoleUser, text("go")),
				msg(session.RoleAssistant, call("a"), call("b")), result("a"), msg(session.RoleAssistant, call("c")), result("b"), result("c"),
				msg(session.RoleAssistant, text("done"))),
			lines: []string{"user text", "assistant call:a call:b call:c", "tool_result result:a", "tool_result result:b", "tool_result result:c", "assistant text"},
			loss:  loss.ToolCall,
		},
		{
			name: "a compaction is a user line marked as its summary",
			s: foreignSession("5d0c6a4e-3b7e-4f38-9a51-2f8d0c1e7a10", msg(session.RoleUser, text("hi")),
				&session.Entry{Kind: session.KindCompaction, Compaction: &session.Compaction{Summary: "so far"}}, msg(session.RoleAssistant, text("ok"))),
			lines: []string{"user text", "user text", "assistant text"},
			loss:  loss.Compaction,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			lost := &loss.Counter{}
			var out bytes.Buffer
			if err := convert.WriteTo(Format{}, &out, &session.SliceReader{S: c.s}, format.WriteOptions{}, lost); err != nil {
				t.Fatal(err)
			}
			var got []string
			parent := ""
			want := c.session
			if want == "" {
				want = c.s.Meta.ID
			} else if !resumable.MatchString(want) || want == c.s.Meta.ID {
				t.Fatalf("derived session id %s is not a new UUID of version 1-5", want)
			}
			for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				v := gjson.Parse(l)
				got = append(got, lineSummary(v))
				if v.Get("sessionId").String() != want {
					t.Errorf("sessionId %s, want %s", v.Get("sessionId"), want)
				}
				if v.Get("parentUuid").String() != parent {
					t.Errorf("line %d: parentUuid %q, want the line before's %q", len(got), v.Get("parentUuid"), parent)
				}
				parent = v.Get("uuid").String()
			}
			if strings.Join(got, "\n") != strings.Join(c.lines, "\n") {
				t.Errorf("lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.lines, "\n"))
			}
			counted := map[loss.Kind]int{}
			for _, it := range lost.Items() {
				counted[it.Kind] += it.Count
			}
			if c.loss != "" && counted[c.loss] != 1 {
				t.Errorf("loss %s counted %d times, want 1 (%v)", c.loss, counted[c.loss], lost.Items())
			}
			// what is written validates, and reads back
			rep := &report.Report{}
			if err := (Format{}).ValidateReader("out.jsonl", bytes.NewReader(out.Bytes()), rep, format.ValidateOptions{}); err != nil {
				t.Fatal(err)
			}
			var sb strings.Builder
			_ = rep.WriteText(&sb, &sb)
			if !strings.Contains(sb.String(), " 0 errors, 0 warnings") {
				t.Errorf("validate:\n%s", sb.String())
			}
			r, err := Format{}.OpenReader("out.jsonl", bytes.NewReader(out.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			back, err := session.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if c.loss == loss.Compaction && back.Entries[1].Kind != session.KindCompaction {
				t.Errorf("the summary line reads back as %s, want a compaction", back.Entries[1].Kind)
			}
		})
	}
}
