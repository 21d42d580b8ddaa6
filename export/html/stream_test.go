package html_test

import (
	"encoding/json"
	"fmt"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/internal/testkit/heapwatch"
	"io"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/session"
)

// TestStreamMemory renders a session that is generated as it is read, so
// that only what the renderer keeps is on the heap: the compressed page and
// a skeleton of each entry, well under the session's size, not the session.
func TestStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 60 MB")
	}
	r := rand.New(rand.NewPCG(3, 4))
	prose := func(k int) string {
		var b strings.Builder
		for range k {
			b.WriteString(vocab[r.IntN(len(vocab))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	const turns = 6000
	var size int64
	i, parent := 0, ""
	next := func() (*session.Entry, error) {
		if i == 3*turns {
			return nil, io.EOF
		}
		k := i / 3
		var m *session.Message
		switch i % 3 {
		case 0:
			m = &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: prose(40)}}}
		case 1:
			args, _ := json.Marshal(map[string]string{"command": "grep -rn " + vocab[k%len(vocab)] + " ."})
			m = &session.Message{Role: session.RoleAssistant, Usage: &session.Usage{Input: int64(1000 + k), Output: 50},
				Content: []session.Block{{Type: session.BlockText, Text: prose(60)},
					{Type: session.BlockToolCall, ToolCallID: fmt.Sprintf("c%d", k), ToolName: "bash", Arguments: args}}}
		default:
			m = &session.Message{Role: session.RoleTool, ToolCallID: fmt.Sprintf("c%d", k), ToolName: "bash",
				Content: []session.Block{{Type: session.BlockText, Text: prose(1500)}}}
		}
		id := fmt.Sprintf("e%06d", i)
		raw, _ := json.Marshal(map[string]any{"type": "message", "id": id, "parentId": parent, "message": m})
		size += int64(len(raw)) + 1
		e := &session.Entry{Kind: session.KindMessage, Type: "message", ID: id, ParentID: parent, Message: m}
		parent = id
		i++
		return e, nil
	}
	defer debug.SetGCPercent(debug.SetGCPercent(50)) // as export does
	cw := &countWriter{}
	var tr *transcript.Transcript
	var err error
	grew, _ := heapwatch.Growth(func() { tr, err = html.Stream(cw, session.Meta{ID: "stream"}, next, "") })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("session %d bytes, page %d bytes, heap grew by at most %d bytes (%.2f of the session)", size, cw.n, grew, float64(grew)/float64(size))
	if len(tr.Path) != 3*turns || tr.Stats().ToolCalls != turns {
		t.Errorf("path %d entries, %d tool calls", len(tr.Path), tr.Stats().ToolCalls)
	}
	if grew > size/2 {
		t.Errorf("streaming grew the heap by %d bytes, more than half the session's %d", grew, size)
	}
}
