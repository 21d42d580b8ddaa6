package flat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

func tm(s string) session.Time { t, _ := session.ParseTime(s); return t }

func text(s string) session.Block { return session.Block{Type: session.BlockText, Text: s} }

// foreignSession is a pi-like tree session with branches and entries flat
// cannot hold.
func foreignSession() *session.Session {
	at := func(sec int) session.Time { return tm(fmt.Sprintf("2026-01-11T10:00:%02d.123456+00:00", sec)) }
	msg := func(id, parent string, sec int, m *session.Message) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Time: at(sec), Message: m, Source: session.Source{Origin: "tree"}}
	}
	five := int64(5)
	hundred, ten := int64(100), int64(10)
	return &session.Session{
		Meta: session.Meta{ID: "sess-1", Title: "Fix it", Cwd: "/w", Created: at(0), Source: session.Source{Origin: "tree"}, Version: "3", Model: "claude"},
		Entries: []*session.Entry{
			msg("a1b2c3d4", "", 1, &session.Message{Role: session.RoleUser, Content: []session.Block{text("hi")}, ContentIsString: true}),
			msg("not-hex-2", "a1b2c3d4", 2, &session.Message{Role: session.RoleAssistant, API: "anthropic-messages", Model: "claude", Provider: "anthropic",
				StopReason: "toolUse", Usage: &session.Usage{Input: 10, Output: 5, Reasoning: 3, Total: &five, Cost: &session.Cost{Total: 0.25}},
				Content: []session.Block{{Type: session.BlockThinking, Text: "think", Signature: "sig"}, text("ok"),
					{Type: session.BlockToolCall, ToolCallID: "call1", ToolName: "bash", Arguments: json.RawMessage(`{"cmd": "ls"}`)}}}),
			msg("c3", "not-hex-2", 3, &session.Message{Role: session.RoleTool, SourceRole: "toolResult", ToolCallID: "call1", ToolName: "bash",
				Content: []session.Block{text("a.go")}, Details: json.RawMessage(`{"x":1}`)}),
			msg("c4", "c3", 4, &session.Message{Role: session.RoleUser, Content: []session.Block{text("abandoned branch")}}),
			{Kind: session.KindCustom, ID: "c5", ParentID: "c3", Time: at(5), Custom: &session.Custom{CustomType: "ext", Data: json.RawMessage(`{}`)}, Source: session.Source{Origin: "tree"}},
			{Kind: session.KindLabel, ID: "c6", ParentID: "c5", Time: at(6), Label: &session.Label{TargetID: "c3", Label: "x"}, Source: session.Source{Origin: "tree"}},
			{Kind: session.KindCompaction, ID: "c7", ParentID: "c6", Time: at(7), Source: session.Source{Origin: "tree"},
				Compaction: &session.Compaction{Summary: "## Goal\nfix", FirstKeptID: "c3", TokensBefore: &hundred, TokensAfter: &ten}},
			msg("c8", "c7", 8, &session.Message{Role: session.RoleAssistant, Model: "claude", Provider: "anthropic",
				Content: []session.Block{{Type: session.BlockToolCall, ToolCallID: "call2", ToolName: "edit"}}}),
			msg("c9", "c8", 9, &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockToolResult, ToolCallID: "call2", Text: "denied", IsError: true}}}),
			msg("c10", "c9", 10, &session.Message{Role: session.RoleSystem, Content: []session.Block{text("sys")}}),
			msg("c11", "c10", 11, &session.Message{Role: session.RoleUser, Content: []session.Block{text("see"),
				{Type: session.BlockImage, URL: "https://x/y.png"}, {Type: session.BlockImage, Data: "AAAA", MimeType: "image/png", Filename: "y.png"}}}),
			msg("c12", "c11", 12, &session.Message{Role: session.RoleAssistant, Model: "claude", Provider: "anthropic", StopReason: "end_turn", Content: []session.Block{text("done")}}),
		},
	}
}

func TestWriteForeign(t *testing.T) {
	lost := &loss.Counter{}
	var out bytes.Buffer
	if err := convert.WriteTo(New(), &out, &session.SliceReader{S: foreignSession()}, format.WriteOptions{}, lost); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "foreign/out.jsonl", out.Bytes())
	var items strings.Builder
	for _, it := range lost.Items() {
		items.WriteString(it.String() + "\n")
	}
	golden.Assert(t, "foreign/loss.txt", []byte(items.String()))

	// What was written is a valid flat file, with the agent's id shape and a
	// linear parent chain starting at "".
	rep := &report.Report{}
	if err := New().ValidateReader("out.jsonl", bytes.NewReader(out.Bytes()), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if rep.Errors()+rep.Warnings() != 0 {
		t.Errorf("output does not validate clean: %v", rep.Findings())
	}
	hex8 := regexp.MustCompile(`^[0-9a-f]{8}$`)
	prev := ""
	for i, l := range lines(out.Bytes())[1:] {
		v := gjson.Parse(l)
		if !hex8.MatchString(v.Get("id").String()) || v.Get("parent_id").String() != prev {
			t.Errorf("line %d: id %s parent %s, want 8 hex chars and parent %q", i+2, v.Get("id"), v.Get("parent_id"), prev)
		}
		prev = v.Get("id").String()
	}
	if !strings.Contains(out.String(), `"id":"a1b2c3d4","parent_id":""`) {
		t.Error("an 8-hex source id should be kept")
	}
	if strings.Contains(out.String(), "abandoned branch") || strings.Contains(out.String(), `"sys"`) {
		t.Error("off-path or system message written")
	}

	// Writing is deterministic.
	var again bytes.Buffer
	if err := convert.WriteTo(New(), &again, &session.SliceReader{S: foreignSession()}, format.WriteOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), out.Bytes()) {
		t.Error("two writes of the same session differ")
	}
}

// A converted session reads back into the same conversation.
func TestWriteForeignReadsBack(t *testing.T) {
	var out bytes.Buffer
	if err := convert.WriteTo(New(), &out, &session.SliceReader{S: foreignSession()}, format.WriteOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	r, err := New().OpenReader("out", bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, e := range s.Entries {
		if e.Message != nil {
			roles = append(roles, string(e.Message.Role))
		} else {
			roles = append(roles, string(e.Kind))
		}
	}
	want := "user assistant tool compaction assistant tool user assistant"
	if got := strings.Join(roles, " "); got != want {
		t.Errorf("entries: %s\nwant     %s", got, want)
	}
	if s.Meta.ID != spell.UUID("flat:sess-1") || s.Meta.Cwd != "/w" || s.Meta.Created.Raw != "2026-01-11T10:00:00Z" {
		t.Errorf("meta: %+v", s.Meta)
	}
	c := s.Entries[3].Compaction
	if c.FirstKeptID != s.Entries[2].ID {
		t.Errorf("first_kept_entry_id %q, want the tool result's new id %q", c.FirstKeptID, s.Entries[2].ID)
	}
	res := s.Entries[5].Message
	if res.ToolCallID != "call2" || res.ToolName != "edit" || !res.IsError || res.Text() != "denied" {
		t.Errorf("tool result from a block: %+v", res)
	}
	if a := s.Entries[1].Message; a.StopReason != "tool_use" || string(a.Content[2].Arguments) != `{"cmd":"ls"}` {
		t.Errorf("assistant: %+v", a)
	}
}
