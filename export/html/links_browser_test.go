package html_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
)

// TestLinksInBrowser opens the page of a session whose Markdown holds links
// with every refused scheme, some spelt with character references
// (&#106;avascript:, java&Tab;script:), and asks Chromium what each link of
// the conversation would follow: only a web or mail address, or the page
// itself (a relative address on file://), is allowed.
func TestLinksInBrowser(t *testing.T) {
	b := browsertest.New(t)
	page, _ := writePage(t, fixture.HostileSession(), "")
	b.Open(t, page)
	b.RenderAll(t)
	var out string
	// every address an element of the conversation holds, as the browser
	// resolves it; the session's own images are data: images (img.img)
	b.Eval(t, `JSON.stringify([...document.querySelectorAll('#msgs [href], #msgs [src], #msgs [action], #msgs [formaction]')]
	  .filter(e => !(e.tagName === 'IMG' && e.classList.contains('img') && e.getAttribute('src').startsWith('data:image/')))
	  .filter(e => ['href', 'src', 'action', 'formaction'].some(n => e.hasAttribute(n) &&
	    !/^(https?|mailto|file):$/.test(new URL(e.getAttribute(n), location.href).protocol)))
	  .map(e => e.outerHTML.slice(0, 160)))`, &out)
	var bad []string
	if err := json.Unmarshal([]byte(out), &bad); err != nil {
		t.Fatal(err)
	}
	for _, a := range bad {
		t.Errorf("a link to a refused scheme: %s", a)
	}
	var pwned string
	b.Eval(t, `String(window.pwned)`, &pwned)
	if pwned != "undefined" {
		t.Errorf("injected code ran: window.pwned = %s", pwned)
	}
	// the refused links keep their text
	text := b.MsgsText(t)
	for _, want := range []string{"entity link", "hex entity", "tab entity", "pointed", "entity ref"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text of link %q is not shown", want)
		}
	}
	b.Clean(t, page)
}
