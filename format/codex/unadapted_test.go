package codex_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/codex"
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
			err := convert.WriteTo(codex.Format{}, &b, &session.SliceReader{S: s}, format.WriteOptions{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got error %v, want one saying %q", err, c.want)
			}
		})
	}
}
