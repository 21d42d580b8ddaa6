package html

import (
	"strings"
	"testing"
)

// A link the page refuses is its text, never an empty or dead href.
func TestUnsafeLinkIsText(t *testing.T) {
	for _, tc := range []struct{ md, want, not string }{
		{"[click me](javascript:alert(1))", "click me", "href"},
		{"<javascript:alert(1)>", "javascript:alert(1)", "href"},
		{"[ok](https://example.com/a?b=1&c=2)", `<a href="https://example.com/a?b=1&amp;c=2">ok</a>`, ""},
		{"<https://example.com>", `<a href="https://example.com">https://example.com</a>`, ""},
		{"[t](vbscript:x \"title\")", "t", "href"},
	} {
		got := markdown(tc.md)
		if !strings.Contains(got, tc.want) || (tc.not != "" && strings.Contains(got, tc.not)) {
			t.Errorf("%s -> %s", tc.md, got)
		}
	}
}
