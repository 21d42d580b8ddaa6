package html_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
)

// TestBrowserIndex drives a site's index: every session listed, grouped by
// project, sorting by a column (both ways), filtering as you type, and the
// link to a page.
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
	// sorting is within each project's group; the groups keep their order
	if got := titles(); got != "Narwhal tests|Walrus parser|<b>bold</b> title" {
		t.Errorf("sorted by messages, descending = %q", got)
	}
	b.Do(t, chromedp.Click(chromedp.CSS(`th[data-k="cost"] button`)))
	if got := titles(); got != "Narwhal tests|Walrus parser|<b>bold</b> title" {
		t.Errorf("sorted by cost = %q", got)
	}
	var text string
	b.Eval(t, `Array.from(document.querySelectorAll('#ix tbody')).map((g) => g.textContent).join(' ')`, &text)
	for _, want := range []string{"1,200", "$3.50", "$0.2500", "2026-01-03 09:00", "/p/walrus", "openai/gpt-5", "2 sessions"} {
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
	var groups string
	b.Eval(t, `Array.from(document.querySelectorAll('#ix tbody')).map((g) => g.dataset.project + (g.hidden ? ' hidden' : '')).join('|')`, &groups)
	if groups != "/p/narwhal|/p/walrus hidden" {
		t.Errorf("groups while filtering narwhal = %q", groups)
	}
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

// indexFixture writes an index of sessions from three projects, with
// long unbroken paths, ids and titles (the phone layout must wrap them)
// and sessions that record no tokens, cost or time.
func indexFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	day := func(d int) time.Time { return time.Date(2026, 1, d, 9, 0, 0, 0, time.UTC) }
	long := "/home/someone/src/github.com/an-organisation-with-a-long-name/a-repository-with-an-even-longer-name/sub"
	es := []html.IndexEntry{
		{Href: "a.html", ID: "a", Title: "Walrus parser", Date: day(3), Project: "/p/walrus", Models: []string{"anthropic/claude-opus-4"}, Messages: 1200,
			Duration: 95 * time.Minute, Timed: true, Tokens: 123456789, HasTokens: true, Cost: 3.5, HasCost: true},
		{Href: "b.html", ID: "b", Title: "Narwhal tests", Date: day(5), Project: "/p/narwhal", Messages: 7, Duration: 30 * time.Second, Timed: true},
		{Href: "c.html", ID: strings.Repeat("c0ffee", 12), Title: strings.Repeat("Unbroken", 12), Date: day(1), Project: long, Messages: 40},
		{Href: "d.html", ID: "d", Title: "No project", Project: "", Messages: 2},
	}
	f, err := os.Create(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if err := html.WriteIndex(f, es); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return filepath.Join(dir, "index.html")
}

// The project and date filters keep the sessions of one project and of a
// range of days; what is not recorded shows as —.
func TestBrowserIndexFilters(t *testing.T) {
	b := browsertest.New(t)
	page := indexFixture(t)
	if err := chromedp.Do(b.Ctx(), chromedp.Navigate("file://"+page)); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `document.documentElement.dataset.ready === '1'`)
	set := func(id, v string) {
		b.Eval(t, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q; e.dispatchEvent(new Event('input')); return true; })()`, id, v), new(bool))
	}
	ids := func() string {
		var s string
		b.Eval(t, `Array.from(document.querySelectorAll('#ix tbody:not([hidden]) tr:not([hidden]):not(.group) a')).map((a) => a.getAttribute('href')).join(' ')`, &s)
		return s
	}
	if got := ids(); got != "b.html a.html c.html d.html" {
		t.Errorf("all = %q (groups by their newest session, the undated last)", got)
	}
	for _, tc := range []struct{ proj, from, to, want string }{
		{"/p/walrus", "", "", "a.html"},
		{"", "2026-01-03", "", "b.html a.html"},
		{"", "", "2026-01-03", "a.html c.html"},
		{"", "2026-01-02", "2026-01-04", "a.html"},
		{"/p/narwhal", "2026-01-01", "2026-01-03", ""},
		{"", "", "", "b.html a.html c.html d.html"},
	} {
		set("proj", tc.proj)
		set("from", tc.from)
		set("to", tc.to)
		if got := ids(); got != tc.want {
			t.Errorf("project %q from %q to %q: %q, want %q", tc.proj, tc.from, tc.to, got, tc.want)
		}
	}
	var cells string
	b.Eval(t, `Array.from(document.querySelectorAll('a[href="b.html"]')[0].closest('tr').cells).map((c) => c.textContent).slice(2).join('|')`, &cells)
	if cells != "7|30s|—|—" {
		t.Errorf("b's messages, duration, tokens, cost = %q", cells)
	}
	b.Eval(t, `Array.from(document.querySelectorAll('a[href="a.html"]')[0].closest('tr').cells).map((c) => c.textContent).slice(2).join('|')`, &cells)
	if cells != "1,200|1h35m|123,456,789|$3.50" {
		t.Errorf("a's messages, duration, tokens, cost = %q", cells)
	}
	b.Clean(t, page)
}

// On a phone (390 px) the index is a list of cards: nothing wider than
// the screen, no horizontal scroll, every fact of a session inside it;
// text has a contrast of at least 4.5:1 in both themes there and on a
// desktop.
func TestBrowserIndexPhone(t *testing.T) {
	b := browsertest.New(t)
	page := indexFixture(t)
	t.Cleanup(func() { chromedp.Do(b.Ctx(), chromedp.EmulateViewport(1280, 900), browsertest.Scheme("")) })
	for _, tc := range []struct {
		width  int64
		scheme string
	}{{390, "light"}, {390, "dark"}, {1280, "light"}, {1280, "dark"}} {
		t.Run(fmt.Sprintf("%d-%s", tc.width, tc.scheme), func(t *testing.T) {
			b.Do(t, chromedp.EmulateViewport(tc.width, 844, chromedp.EmulateMobile), browsertest.Scheme(tc.scheme))
			if err := chromedp.Do(b.Ctx(), chromedp.Navigate("file://"+page)); err != nil {
				t.Fatal(err)
			}
			b.Wait(t, `document.documentElement.dataset.ready === '1'`)
			var dark bool
			b.Eval(t, `matchMedia('(prefers-color-scheme: dark)').matches`, &dark)
			if dark != (tc.scheme == "dark") {
				t.Fatalf("the emulated scheme did not take: dark = %v", dark)
			}
			if tc.width < 600 {
				var over string
				b.Eval(t, `(() => {
					const d = document.documentElement, out = [];
					if (d.scrollWidth > d.clientWidth) out.push('document ' + d.scrollWidth + ' > ' + d.clientWidth);
					const m = document.querySelector('main');
					if (m.scrollWidth > m.clientWidth) out.push('main ' + m.scrollWidth + ' > ' + m.clientWidth);
					for (const el of document.querySelectorAll('td, tr.group th, #filters label')) {
						const r = el.getBoundingClientRect();
						if (r.width && (r.right > d.clientWidth + 0.5 || r.left < -0.5)) out.push(el.tagName + ' ' + (el.dataset.k || el.textContent.slice(0, 20)) + ' ' + r.left + '..' + r.right);
					}
					return out.join('; ');
				})()`, &over)
				if over != "" {
					t.Errorf("wider than the screen: %s", over)
				}
				var cards bool
				b.Eval(t, `getComputedStyle(document.querySelector('#ix tbody tr:not(.group)')).display === 'flex' && getComputedStyle(document.querySelector('#ix thead')).position === 'absolute'`, &cards)
				if !cards {
					t.Error("rows are not cards at 390 px")
				}
				var facts string // the labels are generated content, which innerText leaves out
				b.Eval(t, `Array.from(document.querySelector('a[href="a.html"]').closest('tr').cells).map((c) => getComputedStyle(c, '::before').content.replace(/^"|"$/g, '').replace(/\s*"\s*"?\s*/g, ' ').replace(/ $/, '') + ' ' + c.innerText).join(' | ')`, &facts)
				for _, want := range []string{"Date 2026-01-03 09:00", "Messages 1,200", "Duration 1h35m", "Tokens 123,456,789", "Cost $3.50"} {
					if !strings.Contains(facts, want) {
						t.Errorf("card %q lacks %q", facts, want)
					}
				}
			}
			var low string
			b.Eval(t, contrastJS, &low)
			if low != "" {
				t.Errorf("contrast below 4.5:1: %s", low)
			}
			browsertest.Screenshot(t, b, fmt.Sprintf("index-%d-%s.png", tc.width, tc.scheme))
		})
	}
}

// contrastJS lists every visible text's contrast below 4.5:1 (WCAG 2
// relative luminance), against the first opaque background behind it;
// text of a pseudo-element (the card's labels) is checked on its element.
const contrastJS = `(() => {
	const rgb = (s) => { const m = s.match(/[\d.]+/g).map(Number); return { c: m.slice(0, 3), a: m.length > 3 ? m[3] : 1 }; };
	const lum = (c) => { const v = c.map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }); return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
	const bg = (el) => { for (let e = el; e; e = e.parentElement) { const b = rgb(getComputedStyle(e).backgroundColor); if (b.a > 0.5) return b.c; } return rgb(getComputedStyle(document.documentElement).backgroundColor).c; };
	const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
	const out = [];
	const check = (el, style, what) => {
		const r = ratio(rgb(style.color).c, bg(el));
		if (r < 4.5) out.push(what + ' ' + r.toFixed(2));
	};
	for (const el of document.querySelectorAll('body *')) {
		if (!el.getClientRects().length) continue;
		const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
		if (own) check(el, getComputedStyle(el), el.tagName + '.' + el.className + ' "' + el.textContent.trim().slice(0, 20) + '"');
		for (const p of ['::before', '::after']) {
			const st = getComputedStyle(el, p);
			if (st.content && st.content !== 'none' && st.content !== 'normal' && st.content !== '""') check(el, st, el.tagName + p);
		}
	}
	return Array.from(new Set(out)).join('; ');
})()`
