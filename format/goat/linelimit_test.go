package goat

import (
	"strings"
	"testing"

	"github.com/sesstool/sesstool/session"
)

// longestLine, by which the adaptation cuts a message to MaxLine, is never
// shorter than a line Write makes of the message, whatever its time, and
// measures each tool result of a user message as the line of its own it is.
func TestLongestLine(t *testing.T) {
	at := session.FromMillis(1763698000123)
	text := func(s string) session.Block { return session.Block{Type: session.BlockText, Text: s} }
	result := func(s string) session.Block {
		return session.Block{Type: session.BlockToolResult, ToolCallID: "c1", Text: s}
	}
	for _, tc := range []struct {
		name  string
		m     *session.Message
		lines []*session.Message // the lines Write makes of it
	}{
		{"user text", &session.Message{Role: session.RoleUser, Content: []session.Block{text(strings.Repeat("a\n", 500))}},
			[]*session.Message{{Role: session.RoleUser, ContentIsString: true, Content: []session.Block{text(strings.Repeat("a\n", 500))}}}},
		{"a long result beside short text", &session.Message{Role: session.RoleUser, Content: []session.Block{result(strings.Repeat("r", 900)), text("hi")}},
			[]*session.Message{resultMessage(result(strings.Repeat("r", 900))), {Role: session.RoleUser, ContentIsString: true, Content: []session.Block{text("hi")}}}},
		{"results only", &session.Message{Role: session.RoleUser, Content: []session.Block{result("x"), result(strings.Repeat("é", 300))}},
			[]*session.Message{resultMessage(result(strings.Repeat("é", 300)))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := longestLine(&session.Entry{Kind: session.KindMessage, Time: at, Message: tc.m})
			want := 0
			for _, m := range tc.lines {
				want = max(want, len(encodeLine(&session.Entry{Time: at, Message: m}, "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", false)))
			}
			// the same line, its time at its longest: at most 15 bytes more
			if got < want || got > want+15 {
				t.Errorf("longestLine = %d, the longest line written is %d bytes", got, want)
			}
		})
	}
}
