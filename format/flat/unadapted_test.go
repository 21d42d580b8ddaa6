package flat

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/session"
)

// The writer is handed a session from another layout adapted (convert.For):
// what flat has no line for is gone. Handed one that was not, it refuses the
// first entry holding such a thing with an error naming it, rather than
// leave it out uncounted.
func TestWriteForeignRefusesUnadapted(t *testing.T) {
	user := func(id string, bs ...session.Block) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, Time: tm("2026-01-11T10:00:00Z"),
			Message: &session.Message{Role: session.RoleUser, Content: append([]session.Block{text("hi")}, bs...)}}
	}
	for _, c := range []struct {
		name    string
		entries []*session.Entry
		want    string
	}{
		{"an extension message", []*session.Entry{{Kind: session.KindCustomMessage, ID: "x1"}}, `entry "x1": flat has no line for a custom_message entry`},
		{"a block flat lacks", []*session.Entry{user("x2", session.Block{Type: "video"})}, `entry "x2": flat has no video blocks`},
		{"a result with no call", []*session.Entry{user("x3", session.Block{Type: session.BlockToolResult, ToolCallID: "c1"})},
			`entry "x3": the call of its tool result "c1" is not written before it`},
		{"a tool message with no call", []*session.Entry{{Kind: session.KindMessage, ID: "x4",
			Message: &session.Message{Role: session.RoleTool, ToolCallID: "c2", Content: []session.Block{text("out")}}}},
			`entry "x4": its tool call "c2" is not written before it`},
		{"a compaction naming an entry not written", []*session.Entry{user("a1"), {Kind: session.KindCompaction, ID: "x5",
			Compaction: &session.Compaction{Summary: "s", FirstKeptID: "later"}}}, `entry "x5": flat's compaction must name an entry written before it`},
		{"a compaction with nothing before it", []*session.Entry{{Kind: session.KindCompaction, ID: "x6",
			Compaction: &session.Compaction{Summary: "s"}}}, `entry "x6": flat's compaction must name an entry written before it`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{ID: "s", Created: tm("2026-01-11T10:00:00Z"), Source: session.Source{Origin: "tree"}}, Entries: c.entries}
			var out bytes.Buffer
			err := writeForeign(bufio.NewWriter(&out), &session.SliceReader{S: s})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got error %v, want one saying %q", err, c.want)
			}
		})
	}
}
