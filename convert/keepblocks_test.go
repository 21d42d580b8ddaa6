package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/session"
)

// TestEditBlocks: the one copy of an entry with some of its blocks changed
// or left out: edit is called once for each block picked, in order (the
// rules count in it), the source entry is never changed, and an entry
// with no block picked is given back itself.
func TestEditBlocks(t *testing.T) {
	text, img, call := session.BlockText, session.BlockImage, session.BlockToolCall
	for _, c := range []struct {
		name   string
		in     []session.BlockType
		pick   session.BlockType
		drop   bool
		want   []string // the blocks given, "type" or "type!" for one edited
		edited []session.BlockType
		left   int
	}{
		{"none picked: the entry itself", []session.BlockType{text, call}, img, false, []string{"text", "tool_call"}, nil, 0},
		{"picked blocks changed", []session.BlockType{img, text, img}, img, false, []string{"image!", "text", "image!"}, []session.BlockType{img, img}, 0},
		{"picked blocks left out", []session.BlockType{img, text, call, img}, img, true, []string{"text", "tool_call"}, []session.BlockType{img, img}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := msg("a", "", session.RoleUser)
			e.Message.Content = nil
			for _, typ := range c.in {
				e.Message.Content = append(e.Message.Content, session.Block{Type: typ})
			}
			var edited []session.BlockType
			got, left := editBlocks(e, func(b session.Block) bool { return b.Type == c.pick }, func(b session.Block) (session.Block, bool) {
				edited = append(edited, b.Type)
				b.Text = "!"
				return b, !c.drop
			})
			var blocks []string
			for _, b := range got.Message.Content {
				blocks = append(blocks, string(b.Type)+b.Text)
			}
			if d := cmp.Diff(c.want, blocks); d != "" {
				t.Errorf("blocks (-want +got):\n%s", d)
			}
			if d := cmp.Diff(c.edited, edited); d != "" {
				t.Errorf("edit called for (-want +got):\n%s", d)
			}
			if left != c.left {
				t.Errorf("left out %d, want %d", left, c.left)
			}
			if (got == e) != (c.edited == nil) {
				t.Errorf("given the entry itself: %v, want %v", got == e, c.edited == nil)
			}
			for i, b := range e.Message.Content {
				if b.Text != "" || b.Type != c.in[i] || len(e.Message.Content) != len(c.in) {
					t.Fatalf("the source entry was changed: %+v", e.Message.Content)
				}
			}
		})
	}
}
