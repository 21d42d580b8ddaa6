package peers

import (
	"os"
	"path/filepath"
	"testing"
)

// Codex returns the absolute path of Codex CLI 0.169.0's release binary:
// $SESSTOOL_CODEX, else where scripts/setup installs it.
func Codex(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("SESSTOOL_CODEX")
	if bin == "" {
		bin = filepath.Join(RepoRoot(), ".cache", "codex-0.169.0", "package", "vendor", "x86_64-unknown-linux-musl", "bin", "codex")
	}
	if _, err := os.Stat(bin); err != nil {
		Need(t, "Codex 0.169.0 not installed (set SESSTOOL_CODEX or run scripts/setup): "+err.Error())
	}
	abs, _ := filepath.Abs(bin)
	return abs
}
