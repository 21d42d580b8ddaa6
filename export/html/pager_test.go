package html

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/session"
)

// A chunk is chunkEntries entries, or fewer whose text weighs chunkBytes,
// and is handed out only once every call in it has its result.
func TestPagerChunks(t *testing.T) {
	small := func(i int) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: fmt.Sprint("s", i), Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "hi"}}}}
	}
	p := newPager()
	for i := range chunkEntries + 10 {
		if i < chunkEntries && p.ready() {
			t.Fatalf("ready after %d small entries", i)
		}
		p.add(small(i))
	}
	if !p.ready() || p.cut != chunkEntries {
		t.Fatalf("small entries: ready %v, cut %d, want a chunk of %d", p.ready(), p.cut, chunkEntries)
	}
	p.take(p.cut)
	if p.cut != 0 || len(p.pending) != 10 {
		t.Fatalf("after the take: cut %d, %d pending; want 0 and 10", p.cut, len(p.pending))
	}
	big := strings.Repeat("x", 100<<10)
	p = newPager()
	call := &session.Entry{Kind: session.KindMessage, ID: "a", Message: &session.Message{Role: session.RoleAssistant, Content: []session.Block{
		{Type: session.BlockText, Text: big}, {Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "bash"}}}}
	p.add(call)
	for i := range 12 {
		p.add(&session.Entry{Kind: session.KindMessage, ID: fmt.Sprint("b", i), Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: big}}}})
	}
	if want := (chunkBytes + weightOf(call) - 1) / weightOf(call); p.cut != want {
		t.Errorf("entries of 100 KiB: cut %d, want %d", p.cut, want)
	}
	if p.ready() {
		t.Error("ready while a call in the chunk waits for its result")
	}
	p.add(&session.Entry{Kind: session.KindMessage, ID: "r", Message: &session.Message{Role: session.RoleTool, ToolCallID: "c1"}})
	if !p.ready() {
		t.Error("not ready once the call's result came")
	}
	if j := p.take(p.cut); j.t.Results["c1"] == nil {
		t.Error("the chunk's call was handed out without its result")
	}
}
