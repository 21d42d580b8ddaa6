package command

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	"github.com/sesstool/sesstool/internal/testkit/shared"
)

// TestExportAxe exports real sessions of ../shared (Claude Code with
// sub-agents, Codex, pi) and runs axe-core on each page, light and dark:
// no serious or critical violation.
func TestExportAxe(t *testing.T) {
	b := browsertest.New(t)
	for _, src := range []string{
		realSession(t, spotterSession),
		realSession(t, acidicSession),
		shared.Sample(t, "pi/pi-mono_before-compaction.v1.jsonl"),
	} {
		page := filepath.Join(t.TempDir(), "page.html")
		env, _, _ := testEnv("")
		if err := Export(env, ExportOptions{Kind: "html", Out: page, Paths: []string{src}}); err != nil {
			t.Fatalf("export %s: %v", src, err)
		}
		for _, theme := range []string{"light", "dark"} {
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
