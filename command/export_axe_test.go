package command

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/internal/testkit/short"
)

// TestExportAxe exports real sessions of ../shared (Claude Code with
// sub-agents, Codex, pi) and runs axe-core on each page, light and dark:
// no serious or critical violation.
func TestExportAxe(t *testing.T) {
	b := browsertest.New(t)
	srcs := []string{
		realSession(t, spotterSession),
		realSession(t, acidicSession),
		shared.Sample(t, "pi/pi-mono_before-compaction.v1.jsonl"),
	}
	// under -short, Claude Code's real session (sub-agents, tools) in the
	// light theme
	for _, src := range short.Cases(t, srcs, nil) {
		page := filepath.Join(t.TempDir(), "page.html")
		env, _, _ := testEnv("")
		if err := Export(env, ExportOptions{Kind: "html", Out: page, Paths: []string{src}}); err != nil {
			t.Fatalf("export %s: %v", src, err)
		}
		for _, theme := range short.Cases(t, []string{"light", "dark"}, nil) {
			t.Run(filepath.Base(src)+"/"+theme, func(t *testing.T) {
				b.Open(t, page)
				b.Eval(t, fmt.Sprintf(`(document.documentElement.dataset.theme = %q, true)`, theme), new(bool))
				for _, v := range b.Axe(t) {
					t.Errorf("axe: %s", v)
				}
			})
		}
	}
}

// TestExportIndexAxe exports the real Claude Code store of ../shared (its
// sessions in many projects) as a site and runs axe-core on the index with
// its filters used, on a desktop and a phone, light and dark: no serious
// or critical violation.
func TestExportIndexAxe(t *testing.T) {
	store := filepath.Join(shared.Dir(), "real-world", "claude")
	if _, err := os.Stat(store); err != nil {
		peers.Need(t, "real store "+store+" not found (set SESSTOOL_SHARED to the shared folder)")
	}
	b := browsertest.New(t)
	site := t.TempDir()
	env, _, errb := testEnv("")
	if err := Export(env, ExportOptions{Kind: "html", Out: site, Paths: []string{store}}); err != nil {
		t.Fatalf("export %s: %v\n%s", store, err, errb)
	}
	index := filepath.Join(site, indexName)
	t.Cleanup(func() { chromedp.Do(b.Ctx(), chromedp.EmulateViewport(1280, 900), browsertest.Scheme("")) })
	for _, v := range []struct {
		width  int64
		scheme string
	}{{1280, "light"}, {1280, "dark"}, {390, "light"}, {390, "dark"}} {
		t.Run(fmt.Sprintf("%d-%s", v.width, v.scheme), func(t *testing.T) {
			b.Do(t, chromedp.EmulateViewport(v.width, 844, chromedp.EmulateMobile), browsertest.Scheme(v.scheme))
			b.OpenIndex(t, index)
			b.FilterIndex(t)
			for _, f := range b.Axe(t) {
				t.Errorf("axe: %s", f)
			}
			b.Clean(t, index)
		})
	}
}
