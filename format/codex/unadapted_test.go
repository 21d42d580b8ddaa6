package codex_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/codex"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// A session of Codex's own origin passes through the adaptation untouched,
// so an entry of another layout it holds reaches the writer as it was: a
// block the adaptation would have dropped is an error naming the entry,
// never written wrong or left out silently.
func TestWriterRefusesUnadaptedBlocks(t *testing.T) {
	for _, c := range []struct {
		name  string
		role  session.Role
		block session.Block
		want  string
	}{
		{"thinking in a reply", session.RoleAssistant, session.Block{Type: session.BlockThinking, Text: "hm"}, `entry "x1": Codex's assistant replies hold no thinking blocks`},
		{"a call in a user message", session.RoleUser, session.Block{Type: session.BlockToolCall, ToolCallID: "c", ToolName: "t"}, `entry "x1": Codex's user messages hold no tool_call blocks`},
		{"an image with no data", session.RoleUser, session.Block{Type: session.BlockImage}, `entry "x1": the image block has neither data nor a URL`},
		{"a file that is no image", session.RoleUser, session.Block{Type: session.BlockFile, MimeType: "application/pdf", Data: "eA=="}, `entry "x1": Codex's messages hold images, not application/pdf files`},
		{"a compaction's first kept entry", "", session.Block{}, `entry "x1": Codex's compacted line keeps the summary only`},
		{"an image in a tool's output", session.RoleTool, session.Block{Type: session.BlockImage, MimeType: "image/png", Data: "eA=="}, `entry "x1": Codex's function_call_output holds no image blocks`},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := &session.Entry{Kind: session.KindMessage, ID: "x1", Source: session.Source{Origin: "tree"},
				Message: &session.Message{Role: c.role, Content: []session.Block{{Type: session.BlockText, Text: "hi"}, c.block}}}
			if c.role == "" {
				e = &session.Entry{Kind: session.KindCompaction, ID: "x1", Source: session.Source{Origin: "tree"},
					Compaction: &session.Compaction{Summary: "s", FirstKeptID: "a"}}
			}
			s := &session.Session{
				Meta:    session.Meta{ID: "0199a213-81c0-7800-8aa1-bbab2a035a53", Source: session.Source{Origin: codex.Name}},
				Entries: []*session.Entry{e},
			}
			var b bytes.Buffer
			err := convert.WriteTo(codex.Format{}, &b, &session.SliceReader{S: s}, format.WriteOptions{}, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got error %v, want one saying %q", err, c.want)
			}
		})
	}
}

// A tool result of another layout that holds a file (an OpenCode tool's
// attachment) is written as a function_call_output of its text: the file
// is dropped and counted by the adaptation (Caps.BlocksOn), never left out
// silently (as it was).
func TestToolOutputKeepsText(t *testing.T) {
	s := &session.Session{
		Meta: session.Meta{ID: "0199a213-81c0-7800-8aa1-bbab2a035a53", Source: session.Source{Origin: "tree"}},
		Entries: []*session.Entry{
			{Kind: session.KindMessage, ID: "a1", Source: session.Source{Origin: "tree"},
				Message: &session.Message{Role: session.RoleAssistant, Content: []session.Block{{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "read", Arguments: []byte(`{}`)}}}},
			{Kind: session.KindMessage, ID: "r1", ParentID: "a1", Source: session.Source{Origin: "tree"},
				Message: &session.Message{Role: session.RoleTool, ToolCallID: "c1", ToolName: "read", Content: []session.Block{
					{Type: session.BlockText, Text: "a picture"}, {Type: session.BlockFile, MimeType: "image/png", Data: "eA==", Filename: "p.png"}}}},
		},
	}
	var b bytes.Buffer
	lost := &loss.Counter{}
	if err := convert.WriteTo(codex.Format{}, &b, &session.SliceReader{S: s}, format.WriteOptions{}, lost); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"type":"function_call_output","call_id":"c1","output":"a picture"`) {
		t.Errorf("no function_call_output of the text:\n%s", b.String())
	}
	var got []string
	for _, it := range lost.Items() {
		got = append(got, it.String())
	}
	want := "1 file-block dropped (Codex's function_call_output holds the output's text only)"
	if !slices.Contains(got, want) {
		t.Errorf("losses %q, want %q among them", got, want)
	}
}
