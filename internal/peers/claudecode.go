package peers

import (
	"os"
	"path/filepath"
	"testing"
)

// ClaudeCodeVersion is the Claude Code release scripts/setup installs and
// the real-agent tests run.
const ClaudeCodeVersion = "2.1.332"

// ClaudeCode returns the absolute path of Claude Code's native binary:
// $SESSTOOL_CLAUDE_CODE, else where scripts/setup unpacks the Linux x64
// platform package of @anthropic-ai/claude-code.
func ClaudeCode(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("SESSTOOL_CLAUDE_CODE")
	if bin == "" {
		bin = filepath.Join(RepoRoot(), ".cache", "agents", "claude-code-"+ClaudeCodeVersion, "package", "claude")
	}
	if _, err := os.Stat(bin); err != nil {
		Need(t, "Claude Code "+ClaudeCodeVersion+" is not installed (set SESSTOOL_CLAUDE_CODE or run scripts/setup): "+err.Error())
	}
	abs, _ := filepath.Abs(bin)
	return abs
}
