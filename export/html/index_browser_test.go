package html_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
)

// TestBrowserIndex drives a site's index: every session listed, sorting by
// a column (both ways), filtering as you type, and the link to a page.
func TestBrowserIndex(t *testing.T) {
	b := browsertest.New(t)
	dir := t.TempDir()
	day := func(d int) time.Time { return time.Date(2026, 1, d, 9, 0, 0, 0, time.UTC) }
	es := []html.IndexEntry{
		{Href: "a.html", ID: "a", Title: "Walrus parser", Date: day(3), Project: "/p/walrus", Models: []string{"anthropic/claude-opus-4"}, Messages: 1200, Cost: 3.5, HasCost: true},
		{Href: "b#1.html", ID: "b", Title: "Narwhal tests", Date: day(5), Project: "/p/narwhal", Models: []string{"openai/gpt-5"}, Messages: 7, Cost: 0.25, HasCost: true},
		{Href: "c.html", ID: "c", Title: "<b>bold</b> title", Date: day(1), Project: "/p/walrus", Messages: 40, Cost: 12, HasCost: true},
	}
	f, err := os.Create(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if err := html.WriteIndex(f, es); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.WriteFile(filepath.Join(dir, "b#1.html"), []byte(`<!DOCTYPE html><title>narwhal page</title><p id=ok>page b`), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "index.html")
	if err := chromedp.Do(b.Ctx(), chromedp.Navigate("file://"+page)); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `document.documentElement.dataset.ready === '1'`)
	titles := func() string {
		var s string
		b.Eval(t, `Array.from(document.querySelectorAll('#ix tbody tr:not([hidden]) a')).map((a) => a.textContent).join('|')`, &s)
		return s
	}
	if got := titles(); got != "Narwhal tests|Walrus parser|<b>bold</b> title" {
		t.Errorf("rows (newest first) = %q", got)
	}
	b.Do(t, chromedp.Click(chromedp.CSS(`th[data-k="messages"] button`)))
	if got := titles(); got != "Narwhal tests|<b>bold</b> title|Walrus parser" {
		t.Errorf("sorted by messages = %q", got)
	}
	b.Do(t, chromedp.Click(chromedp.CSS(`th[data-k="messages"] button`)))
	if got := titles(); got != "Walrus parser|<b>bold</b> title|Narwhal tests" {
		t.Errorf("sorted by messages, descending = %q", got)
	}
	b.Do(t, chromedp.Click(chromedp.CSS(`th[data-k="cost"] button`)))
	if got := titles(); got != "Narwhal tests|Walrus parser|<b>bold</b> title" {
		t.Errorf("sorted by cost = %q", got)
	}
	var text string
	b.Eval(t, `document.querySelector('#ix tbody').textContent`, &text)
	for _, want := range []string{"1,200", "$3.50", "$0.2500", "2026-01-03 09:00", "/p/walrus", "openai/gpt-5"} {
		if !strings.Contains(text, want) {
			t.Errorf("index lacks %q", want)
		}
	}
	b.Do(t, chromedp.SendKeys(chromedp.CSS("#q"), "walrus"))
	if got := titles(); got != "Walrus parser|<b>bold</b> title" {
		t.Errorf("filter walrus = %q", got)
	}
	b.Eval(t, `document.getElementById('count').textContent`, &text)
	if text != "2 of 3" {
		t.Errorf("count = %q", text)
	}
	b.Do(t, chromedp.SendKeys(chromedp.CSS("#q"), " zebra"))
	var none bool
	b.Eval(t, `!document.getElementById('none').hidden`, &none)
	if titles() != "" || !none {
		t.Error("a filter matching nothing leaves rows or no message")
	}
	b.Eval(t, `(() => { const q = document.getElementById('q'); q.value = 'narwhal'; q.dispatchEvent(new Event('input')); return true; })()`, new(bool))
	b.Clean(t, page)
	var href string
	b.Eval(t, `document.querySelector('#ix tbody tr:not([hidden]) a').getAttribute('href')`, &href)
	if href != "b%231.html" {
		t.Errorf("link = %q, want the file name escaped", href)
	}
	b.Do(t, chromedp.Click(chromedp.CSS(`#ix tbody tr:not([hidden]) a`)))
	var title string
	for range 100 { // the click navigates: wait for the new document
		if s, err := chromedp.Run(b.Ctx(), chromedp.Evaluate[string](`document.getElementById('ok') ? document.title : ''`)); err == nil && s != "" {
			title = s
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if title != "narwhal page" {
		t.Errorf("the link opened %q", title)
	}
}
