package html_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/session"
)

// prompts is what the user wrote in each prompt of tr's shown branch.
func prompts(tr *transcript.Transcript) map[string]string {
	out := map[string]string{}
	for _, e := range tr.Path {
		if m := e.Message; m != nil && m.Role == session.RoleUser && m.Exec == nil {
			if s := transcript.PromptText(m.Text()); s != "" {
				out[html.Anchor(e, entryIndex(tr, e))] = s
			}
		}
	}
	return out
}

func entryIndex(tr *transcript.Transcript, e *session.Entry) int {
	for i, x := range tr.S.Entries {
		if x == e {
			return i
		}
	}
	return -1
}

// command runs a DevTools command as a chromedp action.
func command[P any](c cdp.Command[P, cdp.Empty], p P) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, c, p)
		return chromedp.Void{}, err
	}
}

// TestNoScriptReading opens pages with JavaScript off: the session's
// facts, every prompt of the branch (each a link target, its words found
// by the browser's find) and the first cards are there as HTML, the
// sidebar that needs a script is not, and printing shows the prompts.
func TestNoScriptReading(t *testing.T) {
	b := browsertest.New(t)
	s, _ := large(300) // 901 entries: more prompts than the first cards hold
	for _, tc := range []struct {
		name string
		s    *session.Session
	}{{"fixture", fixture.Session()}, {"reading", reading()}, {"large", s}} {
		t.Run(tc.name, func(t *testing.T) {
			page, tr := writePage(t, tc.s, "")
			b.Do(t, command(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}))
			defer b.Do(t, command(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: false}))
			b.Do(t, chromedp.Navigate("file://"+page))
			b.Wait(t, `document.readyState === 'complete'`)
			var ready string
			b.Eval(t, `document.documentElement.dataset.ready || ''`, &ready)
			if ready != "" {
				t.Fatal("the page's script ran: the test needs JavaScript off")
			}
			want := prompts(tr)
			if len(want) == 0 {
				t.Fatal("the session has no prompt")
			}
			text := b.Words(t, "body")
			var visible string
			b.Eval(t, `document.body.innerText`, &visible)
			ids := make([]string, 0, len(want))
			for id := range want {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			// Two browser round trips a prompt: under -short one prompt in
			// ten is looked for, and the last (the large session's 300
			// still make the page hold more than its first cards).
			every := short.Size(1, 10)
			if every > 1 {
				t.Logf("-short: %d of %d prompts looked for; go test -run '^%s$' without -short looks for all", (len(ids)+every-1)/every, len(ids), t.Name())
			}
			for i, id := range ids {
				if i%every != 0 && i != len(ids)-1 {
					continue
				}
				p := want[id]
				var found, target bool
				// window.find is the browser's own find (Ctrl+F)
				first := strings.Join(strings.Fields(p), " ")
				if len(first) > 40 {
					first = strings.TrimSpace(first[:40])
				}
				b.Eval(t, fmt.Sprintf(`window.getSelection().removeAllRanges(), window.find(%q, false, false, true)`, first), &found)
				b.Eval(t, fmt.Sprintf(`!!document.getElementById(%q)`, id), &target)
				if !found || !target {
					t.Errorf("prompt %s (%.40q): found by the browser's find %v, a link target %v", id, p, found, target)
				}
			}
			for _, fact := range []string{"session", tr.S.Meta.ID} {
				if !strings.Contains(visible, fact) {
					t.Errorf("the session's facts are not shown: no %q", fact)
				}
			}
			var cards int
			b.Eval(t, `document.querySelectorAll('#msgs article.msg').length`, &cards)
			if cards == 0 || cards > 6 {
				t.Errorf("%d cards without JavaScript, want the first screen's (1 to 6)", cards)
			}
			var side bool
			b.Eval(t, `getComputedStyle(document.getElementById('side')).display === 'none'`, &side)
			if !side {
				t.Error("the sidebar, which needs a script, is shown")
			}
			if !strings.Contains(text, "Scripts are off") {
				t.Error("no note that scripts are off")
			}
			// printed, the prompts are on the page
			b.Do(t, command(emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}))
			var printed int
			b.Eval(t, `[...document.querySelectorAll('#outline li')].filter((li) => li.getClientRects().length > 0).length`, &printed)
			b.Do(t, command(emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}))
			if n := outlined(t, b); printed != n || n < len(want)-6 {
				t.Errorf("printed: %d of the %d prompts listed (%d prompts, up to 6 of them in cards)", printed, n, len(want))
			}
		})
	}
}

func outlined(t *testing.T, b *browsertest.Browser) int {
	var n int
	b.Eval(t, `document.querySelectorAll('#outline li').length`, &n)
	return n
}

// TestTreeKeyboard moves through the branch tree with the keyboard only:
// Tab reaches it, the arrows move the active row (also past the rows in
// the DOM: the tree of a large session draws only those in view), Enter
// opens the entry.
func TestTreeKeyboard(t *testing.T) {
	b := browsertest.New(t)
	s, _ := large(1000) // 3,001 rows: the tree is drawn in part
	page, tr := writePage(t, s, "")
	b.Open(t, page)
	var rows int
	b.Eval(t, `document.querySelectorAll('#tree .row').length`, &rows)
	if rows == 0 || rows > 300 {
		t.Errorf("%d rows of 3,001 in the DOM, want those in view", rows)
	}
	// Tab from the search box until the tree has the focus
	b.Do(t, chromedp.Focus(chromedp.CSS("#q")))
	var in bool
	for range 30 {
		b.Do(t, chromedp.KeyEvent(kb.Tab))
		b.Eval(t, `document.activeElement.id === 'tree'`, &in)
		if in {
			break
		}
	}
	if !in {
		t.Fatal("Tab never reached the tree")
	}
	active := func() string {
		var id string
		b.Eval(t, `(() => { const t = document.getElementById('tree'), id = t.getAttribute('aria-activedescendant'), r = id && document.getElementById(id);
			return r && r.getAttribute('role') === 'treeitem' && r.classList.contains('focus') ? r.dataset.i : ''; })()`, &id)
		return id
	}
	if a := active(); a != "0" {
		t.Fatalf("active row on entering the tree: %q, want the first (the selected one)", a)
	}
	// the rows are entries 0, 1, 3, 4, 6, …: a tool's result is shown
	// inside its call, not as a row
	for range 3 {
		b.Do(t, chromedp.KeyEvent(kb.ArrowDown))
	}
	b.Do(t, chromedp.KeyEvent(kb.ArrowUp))
	if a := active(); a != "3" {
		t.Errorf("after down, down, down, up the active row is entry %q, want 3", a)
	}
	b.Do(t, chromedp.KeyEvent(kb.Enter))
	var hash string
	b.Eval(t, `location.hash`, &hash)
	if !strings.HasPrefix(hash, "#"+tr.S.Entries[3].ID) {
		t.Errorf("Enter on entry 3 opened %q", hash)
	}
	// End: the last row, drawn and active; Enter renders its card alone
	b.Do(t, chromedp.KeyEvent(kb.End))
	last := fmt.Sprint(len(s.Entries) - 1)
	if a := active(); a != last {
		t.Errorf("End: active row %q, want %s", a, last)
	}
	b.Do(t, chromedp.KeyEvent(kb.Enter))
	var cards int
	b.Eval(t, `document.querySelectorAll('#msgs article.msg').length`, &cards)
	var shown bool
	b.Eval(t, fmt.Sprintf(`(() => { const a = document.getElementById(%q); if (!a) return false; const r = a.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; })()`, s.Entries[len(s.Entries)-1].ID), &shown)
	if !shown || cards > 100 {
		t.Errorf("Enter on the last row: its card in view %v, %d cards in the DOM (want a window, not all)", shown, cards)
	}
	b.Clean(t, page)
}

// TestAxe runs axe-core on the pages, light and dark, and wants no
// serious or critical violation.
func TestAxe(t *testing.T) {
	b := browsertest.New(t)
	withRuns, _ := writePage(t, fixture.Session(), "")
	read, _ := writePage(t, reading(), "")
	for i, pg := range []struct{ name, page string }{{"fixture", withRuns}, {"reading", read}} {
		// Under -short each page meets one theme, and the two pages both.
		for _, theme := range short.Rotate(t, []string{"light", "dark"}, i) {
			name, page := pg.name, pg.page
			t.Run(name+"/"+theme, func(t *testing.T) {
				b.Open(t, page)
				b.Eval(t, fmt.Sprintf(`(document.documentElement.dataset.theme = %q, true)`, theme), new(bool))
				// axe checks what is in the DOM: a hit marked and a fold open too
				b.Do(t, chromedp.SendKeys(chromedp.CSS("#q"), "the"+kb.Enter))
				b.Wait(t, `/ of /.test(document.getElementById('hits').textContent)`)
				b.Eval(t, `(document.querySelector('#filters button[data-f=user]').click(), true)`, new(bool))
				for _, v := range b.Axe(t) {
					t.Errorf("axe: %s", v)
				}
			})
		}
	}
}

// TestPromptNavigation: J and K move to the next and previous prompt, the
// outline of prompts opens one, and the tree marks the message at the top
// of the view and keeps its row in the sidebar's view as the page scrolls.
func TestPromptNavigation(t *testing.T) {
	b := browsertest.New(t)
	s, _ := large(1000) // prompts are entries 0, 3, 6, …
	page, _ := writePage(t, s, "")
	b.Open(t, page)
	top := func() string {
		var id string
		b.Eval(t, `(() => { const a = [...document.querySelectorAll('#msgs article.msg')].find((a) => a.getBoundingClientRect().bottom > 12); return a ? a.id : ''; })()`, &id)
		return id
	}
	for _, step := range []struct {
		key, want string
	}{{"J", "e000003"}, {"J", "e000006"}, {"K", "e000003"}, {"K", "e000000"}} {
		b.Do(t, chromedp.KeyEvent(step.key))
		if got := top(); got != step.want {
			t.Errorf("after %s the message at the top is %s, want %s", step.key, got, step.want)
		}
	}
	// the outline lists every prompt; a click opens one far down
	var n int
	b.Eval(t, `document.querySelectorAll('#side #outline li').length`, &n)
	if n != 1001 {
		t.Errorf("%d prompts in the outline, want 1,001", n)
	}
	b.Eval(t, `(document.getElementById('outline').open = true, document.querySelector('#outline li[data-i="2400"] a').click(), true)`, new(bool))
	if got := top(); got != "e002400" {
		t.Errorf("a click on prompt 2400 of the outline shows %s at the top", got)
	}
	// the tree follows the scroll: the row of the message at the top
	b.Eval(t, `window.scrollBy(0, 3000), true`, new(bool))
	b.Wait(t, `(() => { const r = document.querySelector('#tree .row.here'), a = [...document.querySelectorAll('#msgs article.msg')].find((a) => a.getBoundingClientRect().bottom > 12);
		return !!r && !!a && r.dataset.i === a.dataset.i; })()`)
	var in bool
	b.Eval(t, `(() => { const s = document.getElementById('side').getBoundingClientRect(), r = document.querySelector('#tree .row.here').getBoundingClientRect(); return r.top >= s.top && r.bottom <= s.bottom; })()`, &in)
	if !in {
		t.Error("the row of the message at the top is not in the sidebar's view")
	}
	if got := top(); got <= "e002400" {
		t.Errorf("scrolled down, the message at the top is %s", got)
	}
	b.Clean(t, page)
}
