package convert

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// A declared MessageLimit, where the user lets a message be cut (CutLong),
// cuts the longest text of a message the layout measures too long, ending
// it with the layout's mark, never inside a character, until it fits;
// counted once. A message that fits, or whose bulk is no text, is left as
// it is (its writer refuses it), and so is every message without CutLong.
func TestAdaptFitLong(t *testing.T) {
	// the layout's measure: its text and data, plus 10 bytes of framing
	size := func(e *session.Entry) int {
		n := 10
		for _, b := range e.Message.Content {
			n += len(b.Text) + len(b.Data)
		}
		return n
	}
	limit := &format.Limit{Max: 100, Size: size, Mark: "[cut]", Why: "cut to fit"}
	text := func(texts ...string) *session.Entry {
		e := msg("m", "", session.RoleUser)
		e.Message.Content = nil
		for _, x := range texts {
			e.Message.Content = append(e.Message.Content, session.Block{Type: session.BlockText, Text: x})
		}
		return e
	}
	image := text("hi")
	image.Message.Content = append(image.Message.Content, session.Block{Type: session.BlockImage, Data: strings.Repeat("A", 200)})
	for _, c := range []struct {
		name string
		cut  bool
		in   *session.Entry
		lost []string
	}{
		{"fits", true, text(strings.Repeat("a", 80)), nil},
		{"too long", true, text("short", strings.Repeat("a", 300)), []string{"1 long-message dropped (cut to fit)"}},
		{"multibyte", true, text(strings.Repeat("é😀", 100)), []string{"1 long-message dropped (cut to fit)"}},
		{"two long texts", true, text(strings.Repeat("a", 200), strings.Repeat("b", 150)), []string{"1 long-message dropped (cut to fit)"}},
		{"its bulk an image", true, image, nil},
		{"not let", false, text(strings.Repeat("a", 300)), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := format.Caps{Roles: []session.Role{session.RoleUser}, Blocks: []session.BlockType{session.BlockText, session.BlockImage},
				MessageLimit: limit, CutLong: c.cut}
			before := size(c.in)
			out, lost := adaptAll(t, to, c.in)
			got := size(out[0])
			marked := false
			for _, b := range out[0].Message.Content {
				if !utf8.ValidString(b.Text) {
					t.Errorf("a character was split: %q", b.Text)
				}
				marked = marked || strings.HasSuffix(b.Text, "[cut]")
			}
			switch {
			case c.lost == nil && got != before:
				t.Errorf("the message changed: %d bytes, was %d", got, before)
			case c.lost != nil && (got > limit.Max || !marked):
				t.Errorf("cut to %d bytes (limit %d), marked %v", got, limit.Max, marked)
			case c.lost != nil && got < limit.Max-8:
				t.Errorf("cut to %d bytes, more than needed for %d", got, limit.Max)
			}
			if diff := cmp.Diff(c.lost, lost); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}
