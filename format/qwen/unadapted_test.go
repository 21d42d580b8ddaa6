package qwen

import (
	"io"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// What convert.Adapt drops or joins for Qwen Code (caps: NoLineWhy,
// TurnJoinsWhy) is an error naming the entry when it reaches the writer
// unadapted, never skipped or joined silently.
func TestWriterRefusesUnadapted(t *testing.T) {
	text := func(id string, r session.Role, blocks ...session.Block) *session.Entry {
		return &session.Entry{ID: id, Kind: session.KindMessage, Source: session.Source{Origin: "tree"},
			Message: &session.Message{Role: r, Content: append([]session.Block{{Type: session.BlockText, Text: id}}, blocks...)}}
	}
	call := session.Block{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "run"}
	cases := []struct {
		name    string
		entries []*session.Entry
		id      string
	}{
		{"a compaction without its summary", []*session.Entry{text("a", session.RoleUser), {ID: "k", Kind: session.KindCompaction, Source: session.Source{Origin: "tree"}}}, "k"},
		{"an assistant message among a turn's results", []*session.Entry{text("a", session.RoleUser), text("b", session.RoleAssistant, call), text("x", session.RoleAssistant)}, "x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{ID: "s", Source: session.Source{Origin: "tree"}}, Entries: c.entries}
			err := Format{}.WriteTo(io.Discard, &session.SliceReader{S: s}, format.WriteOptions{})
			if err == nil || !strings.Contains(err.Error(), `"`+c.id+`"`) {
				t.Errorf("err = %v, want one naming entry %s", err, c.id)
			}
		})
	}
}
