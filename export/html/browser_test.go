package html_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/session"
)

func writePage(t *testing.T, s *session.Session, leaf string) (string, *transcript.Transcript) {
	t.Helper()
	tr, err := transcript.New(s, leaf)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := html.Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, tr
}

func TestBrowser(t *testing.T) {
	b := browsertest.New(t)
	page, tr := writePage(t, fixture.Session(), "")
	b.Open(t, page)

	t.Run("active path", func(t *testing.T) {
		b.CheckPath(t, tr)
		text := b.MsgsText(t)
		for _, want := range []string{"zanzibar", "go test ./...", "exit status 1", `println("hi")`, "The parser was fixed", "Tried a rewrite", "fixed"} {
			if !strings.Contains(text, want) {
				t.Errorf("page lacks %q", want)
			}
		}
		if strings.Contains(text, "quokka") {
			t.Error("the other branch is shown on the default path")
		}
		// labels close the data; the page's script tags their messages
		var tag string
		b.Eval(t, `(document.querySelector('#a4 .mh .tag') || {}).textContent || ''`, &tag)
		if tag != "fixed" {
			t.Errorf("a4's label tag = %q, want fixed", tag)
		}
	})
	t.Run("hostile content is text", func(t *testing.T) {
		var pwned string
		b.Eval(t, `String(window.__pwned) + ' ' + String(window.__pwned2)`, &pwned)
		if pwned != "undefined undefined" {
			t.Errorf("injected code ran: %s", pwned)
		}
		text := b.MsgsText(t)
		for _, want := range []string{fixture.Script, `onerror="window.__pwned2 = 1"`} {
			if !strings.Contains(text, want) {
				t.Errorf("hostile text %q not shown as text", want)
			}
		}
		var n int
		b.Eval(t, `document.querySelectorAll('#msgs script, #msgs img:not(.img), #msgs [onerror]').length`, &n)
		if n != 0 {
			t.Errorf("%d live script/img/onerror elements from session text", n)
		}
	})
	t.Run("search", func(t *testing.T) {
		b.Do(t, chromedp.SendKeys(chromedp.CSS("#q"), "quokka"))
		b.Wait(t, `document.getElementById('hits').textContent !== ''`)
		var hits, row string
		b.Eval(t, `document.getElementById('hits').textContent`, &hits)
		if hits != "1 match" {
			t.Errorf("search for quokka: %q, want 1 match", hits)
		}
		b.Eval(t, `document.querySelector('#tree .row').textContent`, &row)
		if !strings.Contains(row, "quokka") {
			t.Errorf("search hit row = %q", row)
		}
	})
	t.Run("switch branch", func(t *testing.T) {
		b.Do(t, chromedp.Click(chromedp.CSS(`#tree .row`)))
		text := b.MsgsText(t)
		if !strings.Contains(text, "quokka") || !strings.Contains(text, "keep it simple") || strings.Contains(text, "zanzibar") {
			t.Errorf("after clicking the other branch the page shows: %.300s", text)
		}
		other, err := transcript.New(fixture.Session(), "b2")
		if err != nil {
			t.Fatal(err)
		}
		b.CheckPath(t, other)
		// clear the search, go back by clicking the last entry of the main branch
		b.Eval(t, `(() => { const q = document.getElementById('q'); q.value = ''; q.dispatchEvent(new Event('input')); return true; })()`, new(bool))
		b.Wait(t, `document.getElementById('hits').textContent === ''`)
		b.Do(t, chromedp.Click(chromedp.CSS(`#tree .row[data-i="20"]`)))
		if !strings.Contains(b.MsgsText(t), "zanzibar") {
			t.Error("could not switch back to the main branch")
		}
	})
	t.Run("filters and theme", func(t *testing.T) {
		var rows int
		b.Do(t, chromedp.Click(chromedp.CSS(`#filters button[data-f="user"]`)))
		b.Eval(t, `document.querySelectorAll('#tree .row').length`, &rows)
		if rows != 3 {
			t.Errorf("user filter shows %d rows, want 3", rows)
		}
		b.Do(t, chromedp.Click(chromedp.CSS(`#filters button[data-f="labeled"]`)))
		b.Eval(t, `document.querySelectorAll('#tree .row').length`, &rows)
		if rows != 1 {
			t.Errorf("labeled filter shows %d rows, want 1", rows)
		}
		var theme string
		b.Do(t, chromedp.Click(chromedp.CSS(`#filters button[data-f="default"]`)), chromedp.Click(chromedp.CSS("#theme")))
		b.Eval(t, `document.documentElement.dataset.theme`, &theme)
		if theme != "dark" {
			t.Errorf("theme toggle gave %q, want dark", theme)
		}
		browsertest.Screenshot(t, b, "export-fixture-dark.png")
		b.Do(t, chromedp.Click(chromedp.CSS("#theme")))
	})
	t.Run("deep link", func(t *testing.T) {
		b.Do(t, chromedp.Navigate("file://"+page+"#b1"))
		b.Wait(t, `document.documentElement.dataset.ready === '1'`)
		if !strings.Contains(b.MsgsText(t), "quokka") {
			t.Error("#b1 did not open the branch holding b1")
		}
	})
	b.Clean(t, page)
	b.Open(t, page)
	browsertest.Screenshot(t, b, "export-fixture.png")
	browsertest.ScreenshotAt(t, b, "a2", "export-fixture-tools.png")
	browsertest.ScreenshotAt(t, b, "k1", "export-fixture-end.png")
	b.Clean(t, page)
}
