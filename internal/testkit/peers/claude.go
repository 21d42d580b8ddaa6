package peers

import (
	"os"
	"path/filepath"
	"testing"
)

// ClaudeSDKVersion is the Claude Agent SDK scripts/setup installs.
const ClaudeSDKVersion = "0.3.330"

// ClaudeSDK returns the absolute path of the Claude Agent SDK's sdk.mjs
// ($SESSTOOL_CLAUDE_SDK, else where scripts/setup installs it).
func ClaudeSDK(t testing.TB) string {
	t.Helper()
	p := os.Getenv("SESSTOOL_CLAUDE_SDK")
	if p == "" {
		p = filepath.Join(RepoRoot(), ".cache", "claude-agent-sdk-"+ClaudeSDKVersion, "package", "sdk.mjs")
	}
	if _, err := os.Stat(p); err != nil {
		Need(t, "the Claude Agent SDK "+ClaudeSDKVersion+" is not installed (set SESSTOOL_CLAUDE_SDK or run scripts/setup): "+err.Error())
	}
	abs, _ := filepath.Abs(p)
	return abs
}
