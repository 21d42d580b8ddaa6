package html_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
)

// TestBrowserReading clicks and types through a long session as a reader
// would (issue 17, points 3 to 9).
func TestBrowserReading(t *testing.T) {
	b := browsertest.New(t)
	page, _ := writePage(t, reading(), "")
	b.Open(t, page)
	eval := func(t *testing.T, js string) string {
		t.Helper()
		var s string
		b.Eval(t, js, &s)
		return s
	}
	num := func(t *testing.T, js string) int {
		t.Helper()
		var n int
		b.Eval(t, js, &n)
		return n
	}
	// click fails at once when nothing matches, instead of waiting for it
	click := func(t *testing.T, sel string) {
		t.Helper()
		if num(t, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel)) == 0 {
			t.Fatalf("nothing matches %s", sel)
		}
		b.Do(t, chromedp.Click(chromedp.CSS(sel)))
	}
	// height of the fold in the message with this id, and its button
	fold := func(t *testing.T, id string) (int, string) {
		t.Helper()
		h := num(t, fmt.Sprintf(`Math.round(document.getElementById(%q).querySelector('.clip > pre').getBoundingClientRect().height)`, id))
		return h, eval(t, fmt.Sprintf(`document.getElementById(%q).querySelector('.clip > .unclip').textContent`, id))
	}

	t.Run("long output is folded to a preview", func(t *testing.T) {
		for _, tc := range []struct {
			id, button, last string
		}{
			{"a1", "show all 50 lines", "line 50"}, // bash output
			{"a2", "show all 40 lines", "note 40"}, // write contents
			{"a3", "show all 41 lines", "new 20"},  // edit diff
			{"x1", "show all 30 lines", "y 30"},    // a user ! command
			{"a5", "show all 50 lines", "code 50"}, // a read
		} {
			h, btn := fold(t, tc.id)
			if btn != tc.button || h > 260 {
				t.Errorf("%s: fold %q, %d px high; want %q, at most 260 px", tc.id, btn, h, tc.button)
			}
			click(t, fmt.Sprintf(`#%s .clip > .unclip`, tc.id))
			h2, btn2 := fold(t, tc.id)
			if h2 < 2*h || btn2 != "show less" {
				t.Errorf("%s: after show all, %d px and %q", tc.id, h2, btn2)
			}
			if !strings.Contains(eval(t, fmt.Sprintf(`document.getElementById(%q).textContent`, tc.id)), tc.last) {
				t.Errorf("%s: the last line %q is not in the page", tc.id, tc.last)
			}
			click(t, fmt.Sprintf(`#%s .clip > .unclip`, tc.id))
		}
	})
	t.Run("read range, numbered diff, failed read", func(t *testing.T) {
		if r := eval(t, `document.querySelector('#a5 .range').textContent`); r != "lines 100–149" {
			t.Errorf("read range = %q", r)
		}
		if n := num(t, `document.querySelectorAll('#a3 pre.diff i[data-n="20"]').length`); n != 2 {
			t.Errorf("diff lines numbered 20: %d, want 2 (old and new)", n)
		}
		if s := eval(t, `getComputedStyle(document.querySelector('#a3 pre.diff i[data-n="3"]'), '::before').content`); s != `"3"` {
			t.Errorf("diff line number shows %s", s)
		}
		if n := num(t, `document.querySelectorAll('#a6 .result.err pre.out').length + document.querySelectorAll('#a6 pre[data-lang]').length * 10`); n != 1 {
			t.Errorf("a failed read is not shown as an error (%d)", n)
		}
		if n := num(t, `document.querySelectorAll('#a6 .badge').length`); n != 1 {
			t.Error("a failed read has no error badge")
		}
	})
	t.Run("a prompt's heading says its tool calls and time", func(t *testing.T) {
		// u1's turn: 5 calls, from its time to the entry before the next prompt
		if got := eval(t, `document.querySelector('#u1 .mh .turn').textContent`); got != "5 tool calls · 14s" {
			t.Errorf("u1's heading says %q", got)
		}
		if n := num(t, `document.querySelectorAll('#a1 .mh .turn').length`); n != 0 {
			t.Errorf("an assistant's heading has %d turn notes", n)
		}
	})
	t.Run("tree rows", func(t *testing.T) {
		rows := eval(t, `Array.from(document.querySelectorAll('#tree .row')).map((r) => r.textContent).join('\n')`)
		for _, want := range []string{"assistant bash: seq 1 50", "assistant read: src/big.go", "assistant edit: src/x.go", "assistant write: notes/big.txt"} {
			if !strings.Contains(rows, want) {
				t.Errorf("no row %q in\n%.600s", want, rows)
			}
		}
		if strings.Contains(rows, "thinking") || strings.Contains(rows, "_") {
			t.Errorf("settings rows or raw type names shown by default:\n%.400s", rows)
		}
		click(t, `#settings`)
		if n := num(t, `Array.from(document.querySelectorAll('#tree .row .rl')).filter((r) => r.textContent === 'thinking').length`); n != 41 {
			t.Errorf("%d thinking rows with the settings filter on, want 41", n)
		}
		click(t, `#settings`)
		// the tree scrolls to the active leaf
		vis := `((r) => { const s = document.getElementById('side').getBoundingClientRect(), x = r.getBoundingClientRect(); return x.top >= s.top && x.bottom <= s.bottom; })`
		var in bool
		b.Eval(t, vis+`(document.querySelector('#tree .row.leaf'))`, &in)
		if !in {
			t.Error("the active leaf's row is not in view in the tree")
		}
		// and to the selected row
		click(t, `#tree .row[data-i="4"]`)
		b.Eval(t, vis+`(document.querySelector('#tree .row.sel'))`, &in)
		if !in || eval(t, `document.querySelector('#tree .row.sel').dataset.i`) != "4" {
			t.Error("the selected row is not marked and in view")
		}
	})
	t.Run("search steps through hits", func(t *testing.T) {
		if n := num(t, `document.querySelectorAll('#msgs .msg').length`); n >= 100 {
			t.Fatalf("all %d messages rendered up front: the test needs unrendered ones", n)
		}
		b.Do(t, chromedp.SendKeys(chromedp.CSS("#q"), "pangolin"))
		b.Wait(t, `document.getElementById('hits').textContent !== ''`)
		if h := eval(t, `document.getElementById('hits').textContent`); h != "2 matches" {
			t.Errorf("hits = %q", h)
		}
		b.Do(t, chromedp.SendKeys(chromedp.CSS("#q"), kb.Enter))
		b.Wait(t, `document.getElementById('hits').textContent === '1 of 2'`)
		inView := `(() => { const m = document.querySelector('mark.hit.cur'); if (!m) return false; const r = m.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && m.textContent.toLowerCase() === 'pangolin'; })()`
		var ok bool
		b.Eval(t, inView, &ok)
		if !ok {
			t.Error("the first hit is not highlighted in view")
		}
		first := eval(t, `document.querySelector('mark.hit.cur').closest('article').id`)
		click(t, "#next")
		b.Wait(t, `document.getElementById('hits').textContent === '2 of 2'`)
		b.Eval(t, inView, &ok)
		second := eval(t, `document.querySelector('mark.hit.cur').closest('article').id`)
		if !ok || second == first || second != "t38" {
			t.Errorf("next hit: %s after %s (in view %v)", second, first, ok)
		}
		click(t, "#prev")
		b.Wait(t, `document.getElementById('hits').textContent === '1 of 2'`)
		if id := eval(t, `document.querySelector('mark.hit.cur').closest('article').id`); id != "t25" {
			t.Errorf("previous hit is in %s, want t25", id)
		}
		if n := num(t, `document.querySelectorAll('mark.hit').length`); n != 1 {
			t.Errorf("%d marks, want the current hit's only", n)
		}
		b.Eval(t, `(() => { const q = document.getElementById('q'); q.value = ''; q.dispatchEvent(new Event('input')); q.blur(); return true; })()`, new(bool))
		b.Wait(t, `document.getElementById('hits').textContent === ''`)
	})
	t.Run("copy buttons and links", func(t *testing.T) {
		b.Eval(t, `(() => { window.__copied = []; navigator.clipboard.writeText = (s) => { window.__copied.push(s); return Promise.resolve(); }; return true; })()`, new(bool))
		// the search left the view at its last hit: back to the top,
		// whose cards the page renders again
		b.Eval(t, `window.scrollTo(0, 0), true`, new(bool))
		b.Wait(t, `!!document.querySelector('#u1 .mh .msgcopy') && !!document.querySelector('#a5 pre.code') && !!document.querySelector('#a1 .mh .link')`)
		click(t, `#u1 .mh .msgcopy`)
		click(t, `#a5 pre.code > button.codecopy`)
		click(t, `#a1 .mh .link`)
		b.Wait(t, `window.__copied.length === 3`)
		got := eval(t, `window.__copied.join('\n----\n')`)
		parts := strings.Split(got, "\n----\n")
		if !strings.HasPrefix(parts[0], "Count to fifty") || strings.Contains(parts[0], "copy") {
			t.Errorf("message copy = %q", parts[0])
		}
		if !strings.HasPrefix(parts[1], "// code 1\n") || !strings.Contains(parts[1], "// code 50") || strings.Contains(parts[1], "copy") {
			t.Errorf("code copy = %.80q", parts[1])
		}
		if !strings.HasSuffix(parts[2], "#a1&leaf=t39") || !strings.HasPrefix(parts[2], "file://") {
			t.Errorf("link copy = %q", parts[2])
		}
	})
	t.Run("expand and collapse all", func(t *testing.T) {
		click(t, "#expand")
		if n := num(t, `document.querySelectorAll('#msgs .clip:not(.open), #msgs details:not([open])').length`); n != 0 {
			t.Errorf("%d folds still closed after expand all", n)
		}
		click(t, "#collapse")
		if n := num(t, `document.querySelectorAll('#msgs .clip.open, #msgs details[open]').length`); n != 0 {
			t.Errorf("%d folds still open after collapse all", n)
		}
	})
	t.Run("keyboard", func(t *testing.T) {
		b.Eval(t, `(document.activeElement && document.activeElement.blur(), window.scrollTo(0, 0), true)`, new(bool))
		top := `(() => { for (const a of document.querySelectorAll('#msgs .msg')) if (a.getBoundingClientRect().bottom > 12) return a.id; return ''; })()`
		start := eval(t, top)
		b.Do(t, chromedp.KeyEvent("j"), chromedp.KeyEvent("j"))
		after := eval(t, top)
		if after == start || after == "" {
			t.Errorf("j j: top message %q -> %q", start, after)
		}
		b.Do(t, chromedp.KeyEvent("k"))
		if back := eval(t, top); back == after {
			t.Errorf("k did not step back from %q", after)
		}
		b.Do(t, chromedp.KeyEvent("?"))
		help := eval(t, `document.getElementById('helpbox').hidden ? '' : document.getElementById('helpbox').textContent`)
		for _, want := range []string{"next / previous message", "expand all", "next / previous hit"} {
			if !strings.Contains(help, want) {
				t.Errorf("help lacks %q: %q", want, help)
			}
		}
		b.Do(t, chromedp.KeyEvent(kb.Escape))
	})
	t.Run("typography and numbers", func(t *testing.T) {
		// a paragraph is at most about 90 characters wide
		var ok bool
		b.Do(t, chromedp.EmulateViewport(1920, 1080))
		b.Eval(t, `(() => { const p = document.querySelector('#t00 .md p'); const s = document.createElement('span'); s.textContent = 'n'.repeat(90); p.append(s); s.style.whiteSpace = 'nowrap';
			const w = s.getBoundingClientRect().width; s.remove(); return p.getBoundingClientRect().width <= w; })()`, &ok)
		if !ok {
			t.Error("a paragraph is wider than 90 characters at 1920 px")
		}
		head := eval(t, `document.getElementById('top').textContent`)
		for _, want := range []string{"54,693,675", "↑ input tokens", "cache write"} {
			if !strings.Contains(head, want) {
				t.Errorf("header lacks %q", want)
			}
		}
		msgs := b.MsgsText(t)
		for _, bad := range []string{"R0", "W0", "↑0", "stop: tool_use", "stop: stop"} {
			if strings.Contains(msgs, bad) {
				t.Errorf("noise %q in the conversation", bad)
			}
		}
		if !strings.Contains(eval(t, `document.querySelector('#a1 .usage').textContent`), "↑54,693,675 ↓1,200 $1.25") {
			t.Errorf("usage line = %q", eval(t, `document.querySelector('#a1 .usage').textContent`))
		}
	})
	t.Run("chart", func(t *testing.T) {
		ax := eval(t, `Array.from(document.querySelectorAll('#chart .yax, #chart .xax')).map((e) => e.textContent).join(' | ')`)
		if !strings.Contains(ax, "54,693,675") || !strings.Contains(ax, "turn 1") || !strings.Contains(ax, "turn 46") {
			t.Errorf("axes = %q", ax)
		}
		if tip := eval(t, `document.querySelectorAll('#chart rect.turn')[3].querySelector('title').textContent`); !strings.Contains(tip, "no token use") {
			t.Errorf("the aborted turn's tooltip = %q", tip)
		}
		if n := num(t, `document.querySelectorAll('#chart polyline.tok').length`); n != 2 {
			t.Errorf("the token line has %d pieces, want 2 around the aborted turn", n)
		}
		click(t, `#chart rect.turn:nth-of-type(5)`)
		if h := eval(t, `location.hash`); h != "#a5&leaf=t39" {
			t.Errorf("clicking turn 5 set %q", h)
		}
		var ok bool
		b.Eval(t, `(() => { const r = document.getElementById('a5').getBoundingClientRect(); return r.top >= -2 && r.top < innerHeight; })()`, &ok)
		if !ok {
			t.Error("clicking a turn did not scroll to its message")
		}
	})
	t.Run("origin and links", func(t *testing.T) {
		head := eval(t, `document.getElementById('top').textContent`)
		if !strings.Contains(head, "forked fromsession origin-42 at entry m17") || !strings.Contains(head, "Tried the **fast** path first.") {
			t.Errorf("header lacks the fork origin: %.500q", head)
		}
		if n := num(t, `document.querySelectorAll('#msgs a[href=""], #msgs a:not([href])').length`); n != 0 {
			t.Errorf("%d links with an empty href", n)
		}
		if u := eval(t, `document.querySelector('#u1 .md').textContent`); !strings.Contains(u, "see the docs and javascript:void(0).") {
			t.Errorf("dropped links are not plain text: %q", u)
		}
	})
	t.Run("phone", func(t *testing.T) {
		b.Do(t, chromedp.EmulateViewport(400, 800))
		b.Open(t, page)
		var ok bool
		b.Eval(t, `document.getElementById('side').getBoundingClientRect().right <= 0`, &ok)
		if !ok {
			t.Error("at 400 px the sidebar is on screen")
		}
		if y := num(t, `Math.round(document.querySelector('#msgs .msg').getBoundingClientRect().top)`); y > 300 {
			t.Errorf("the first message starts at y = %d", y)
		}
		click(t, "#menu")
		b.Wait(t, `document.getElementById('side').getBoundingClientRect().left >= -1`)
		click(t, `#tree .row[data-i="2"]`)
		b.Wait(t, `document.getElementById('side').getBoundingClientRect().right <= 0`)
		click(t, "#facts")
		if !strings.Contains(eval(t, `document.getElementById('about').innerText`), "54,693,675") {
			t.Error("the facts button does not show the session's facts")
		}
		b.Do(t, chromedp.EmulateViewport(1280, 900))
	})
	b.Clean(t, page)
}
