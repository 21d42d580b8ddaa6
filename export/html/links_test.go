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
		// a scheme spelt with character references or escapes is checked as
		// the browser will read it, after they are resolved
		{"[docs](&#106;avascript:alert(1))", "docs", "href"},
		{"[d](&#x6A;avascript&colon;x)", "<p>d</p>", "href"},
		{"[d](java&Tab;script:x)", "<p>d</p>", "href"},
		{"[d](<&#106;avascript:x>)", "<p>d</p>", "href"},
		{"[d]\n\n[d]: &#74;avascript:x", "<p>d</p>", "href"},
		{"![i](&#106;avascript:x)", `<a class="mdimg">[image: i]</a>`, "href"},
		{"[d](&#104;ttps://example.com/)", `<a href="https://example.com/">d</a>`, ""},
		{"[d](docs/a&#58;b.md)", `<a href="docs/a:b.md">d</a>`, ""},
		{"[d](mailto&#58;a@example.com)", `<a href="mailto:a@example.com">d</a>`, ""},
	} {
		got := markdown(tc.md)
		if !strings.Contains(got, tc.want) || (tc.not != "" && strings.Contains(got, tc.not)) {
			t.Errorf("%s -> %s", tc.md, got)
		}
	}
}
