package tree

import (
	"strings"
	"testing"
)

// headerOpen decides whether detection reads past its 64 KiB head: only
// while the line that may be the header is cut and may still be one.
func TestHeaderOpen(t *testing.T) {
	long := strings.Repeat("a", 100)
	for _, c := range []struct {
		name string
		head string
		want bool
	}{
		{"header cut", `{"type":"session","cwd":"/` + long, true},
		{"header cut before its type", `{"cwd":"/` + long, true},
		{"header cut after a byte order mark and blank lines", "\xef\xbb\xbf\n\n" + `{"type":"session","cwd":"/` + long, true},
		{"header whole", `{"type":"session","id":"s"}` + "\n" + `{"type":"message","x":"` + long, false},
		{"another type, cut", `{"type":"user","message":"` + long, false},
		{"not an object", `"` + long, false},
		{"title whole, header cut", `{"type":"title","title":"t"}` + "\n" + `{"type":"session","cwd":"/` + long, true},
		{"title whole, header whole", `{"type":"title","title":"t"}` + "\n" + `{"type":"session"}` + "\n{", false},
		{"title whole, another type cut", `{"type":"title","title":"t"}` + "\n" + `{"type":"message","x":"` + long, false},
		{"title cut", `{"type":"title","title":"` + long, true},
	} {
		if got := headerOpen([]byte(c.head)); got != c.want {
			t.Errorf("%s: headerOpen = %v, want %v", c.name, got, c.want)
		}
	}
}
