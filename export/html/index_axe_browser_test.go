package html_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	"github.com/sesstool/sesstool/internal/testkit/short"
)

// TestIndexAxe runs axe-core on a site's index with its filters used, on
// a desktop and a phone, light and dark: the index as written has no
// serious or critical violation, nor has it when nothing matches, and an
// index broken on purpose (a control without a name, text without
// contrast) has the one broken, so the check is known to see them.
func TestIndexAxe(t *testing.T) {
	b := browsertest.New(t)
	page := indexFixture(t)
	t.Cleanup(func() { chromedp.Do(b.Ctx(), chromedp.EmulateViewport(1280, 900), browsertest.Scheme("")) })
	cases := []struct {
		name  string
		broke string // JavaScript run after filtering: it breaks the index, or shows one more state
		want  string // the rule that must then fail; "" none
	}{
		{name: "as written"},
		{name: "nothing matches", broke: `const q = document.getElementById('q'); q.value = 'zzqqxx'; q.dispatchEvent(new Event('input'));
			if (document.getElementById('none').hidden) throw new Error('no "No session matches"');`},
		{name: "date filter without label", broke: `const f = document.getElementById('from'); f.closest('label').replaceWith(f);`, want: "label"},
		{name: "project filter without label", broke: `const p = document.getElementById('proj'); p.closest('label').replaceWith(p);`, want: "select-name"},
		{name: "sort button without name", broke: `document.querySelector('thead th button').textContent = '';`, want: "button-name"},
		{name: "pale labels", broke: `document.documentElement.style.setProperty('--dim', getComputedStyle(document.body).backgroundColor);`, want: "color-contrast"},
	}
	for i, tc := range cases {
		views := []struct {
			width  int64
			scheme string
		}{{1280, "light"}, {1280, "dark"}, {390, "light"}, {390, "dark"}}
		if i > 0 {
			// Under -short the index as written meets every view; each
			// broken or filtered state meets one, in turn.
			views = short.Rotate(t, views, i-1)
		}
		for _, v := range views {
			t.Run(fmt.Sprintf("%s/%d-%s", tc.name, v.width, v.scheme), func(t *testing.T) {
				b.Do(t, chromedp.EmulateViewport(v.width, 844, chromedp.EmulateMobile), browsertest.Scheme(v.scheme))
				b.OpenIndex(t, page)
				b.FilterIndex(t)
				if tc.broke != "" {
					b.Eval(t, "(() => { "+tc.broke+" return true; })()", new(bool))
				}
				found := b.Axe(t)
				if tc.want == "" {
					for _, f := range found {
						t.Errorf("axe: %s", f)
					}
					return
				}
				for _, f := range found {
					if strings.HasPrefix(f, tc.want+" ") {
						return
					}
				}
				t.Errorf("axe does not report %s; it reports %q", tc.want, found)
			})
		}
	}
}
