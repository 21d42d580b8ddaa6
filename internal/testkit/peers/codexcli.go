package peers

import (
	"os"
	"path/filepath"
	"testing"
)

// CodexCLIVersion is the Codex CLI the real-agent tests (oracle/) run.
const CodexCLIVersion = "0.171.0"

// CodexCLI returns the absolute path of Codex CLI 0.171.0's release
// binary, the agent itself run by the oracle tests: $SESSTOOL_CODEX_CLI,
// else where scripts/setup installs it (.cache/agents/codex-0.171.0).
// The 0.169.0 binary (Codex) stays the app-server reader the format's
// tests use.
func CodexCLI(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("SESSTOOL_CODEX_CLI")
	if bin == "" {
		bin = filepath.Join(RepoRoot(), ".cache", "agents", "codex-"+CodexCLIVersion, "package", "vendor", "x86_64-unknown-linux-musl", "bin", "codex")
	}
	if _, err := os.Stat(bin); err != nil {
		Need(t, "Codex CLI "+CodexCLIVersion+" not installed (set SESSTOOL_CODEX_CLI or run scripts/setup): "+err.Error())
	}
	abs, _ := filepath.Abs(bin)
	return abs
}
