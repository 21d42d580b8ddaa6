package oracle

import (
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/peers"
	"github.com/sesstool/sesstool/internal/shared"
)

// realCodex lists the real Codex rollouts in ../shared/real-world/codex.
func realCodex(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(shared.Dir(), "real-world", "codex", "*.jsonl"))
	if len(files) < 8 {
		peers.Need(t, "the real Codex rollouts are not in "+filepath.Join(shared.Dir(), "real-world", "codex"))
	}
	return files
}

// Every real Codex rollout converts into every other layout, its web
// searches (calls without a call_id) included: each call gets an id of its
// own, where they all had "" and ash's own check refused the output
// ("tool_use id \"\" is used twice").
func TestCodexRealWorldConverts(t *testing.T) {
	for _, f := range realCodex(t) {
		for _, to := range []string{"ash", "claude", "tree", "opencode-export", "flat", "goat"} {
			t.Run(filepath.Base(f)+"/"+to, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out")
				if _, errOut, code := run(t, "convert", "--to", to, "-o", out, f); code != 0 {
					t.Errorf("convert --to %s exited %d:\n%s", to, code, tail(errOut, 2000))
				}
			})
		}
	}
}
