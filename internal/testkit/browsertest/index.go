package browsertest

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// Scheme emulates prefers-color-scheme, which picks a site index's theme
// ("" resets it).
func Scheme(s string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: s}},
		})
		return err
	})
}

// OpenIndex loads a site's index from file:// and waits for its script.
func (b *Browser) OpenIndex(t *testing.T, path string) {
	t.Helper()
	b.mu.Lock()
	b.problems, b.requests = nil, nil
	b.mu.Unlock()
	if err := chromedp.Do(b.ctx, chromedp.Navigate("file://"+path)); err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	b.Wait(t, `document.documentElement.dataset.ready === '1'`)
}

// FilterIndex uses every control of the index the way a reader does: it
// sorts by messages, picks the first project, a day range around its
// newest session and a word of that session's title, so the rows and
// groups hidden, the count and the sort mark are in the DOM axe checks.
// It fails when the filters leave no session: that state would not be
// the one meant.
func (b *Browser) FilterIndex(t *testing.T) {
	t.Helper()
	var shown string
	b.Eval(t, `(() => {
		document.querySelector('th[data-k="messages"] button').click();
		const set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('input')); };
		const proj = document.getElementById('proj');
		set('proj', proj.options[1].value);
		const tr = [...document.querySelectorAll('#ix tbody:not([hidden]) tr:not([hidden]):not(.group)')].find((r) => r.dataset.day) ||
			document.querySelector('#ix tbody:not([hidden]) tr:not([hidden]):not(.group)');
		if (tr.dataset.day) { set('from', tr.dataset.day); set('to', tr.dataset.day); }
		const word = (tr.querySelector('a').textContent.match(/[A-Za-z]{3,}/) || [''])[0];
		set('q', word.toLowerCase());
		return document.getElementById('count').textContent;
	})()`, &shown)
	var n, of int
	if _, err := fmt.Sscanf(shown, "%d of %d", &n, &of); err != nil || n == 0 || n == of {
		t.Fatalf("the index's filters show %q: want some sessions, not all", shown)
	}
}
