package peers

import (
	"os"
	"path/filepath"
	"testing"
)

// ClaudeCodeVersion is the Claude Code release scripts/setup installs and
// the real-agent tests run.
const ClaudeCodeVersion = "2.1.332"

// ClaudeCodeRunVersion is the version of the Claude Code the tests run:
// $SESSTOOL_CLAUDE_CODE_VERSION with $SESSTOOL_CLAUDE_CODE (scripts/
// agents-latest runs the newest release so), else the pinned one.
func ClaudeCodeRunVersion() string {
	if v := os.Getenv("SESSTOOL_CLAUDE_CODE_VERSION"); v != "" && os.Getenv("SESSTOOL_CLAUDE_CODE") != "" {
		return v
	}
	return ClaudeCodeVersion
}

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
