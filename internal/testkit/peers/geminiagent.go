package peers

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// GeminiCLIVersion is the Gemini CLI release the real-agent tests run
// (oracle/gemini_*), installed by scripts/setup.
const GeminiCLIVersion = "0.61.0"

// GeminiCLI returns node and the absolute path of Gemini CLI 0.61.0's
// bundle (package/bundle/gemini.js): $SESSTOOL_GEMINI_CLI, else where
// scripts/setup installs it. The bundle is a node script, so node must be
// on PATH too.
func GeminiCLI(t testing.TB) (node, script string) {
	t.Helper()
	script = os.Getenv("SESSTOOL_GEMINI_CLI")
	if script == "" {
		script = filepath.Join(RepoRoot(), ".cache", "agents", "gemini-cli-"+GeminiCLIVersion, "package", "bundle", "gemini.js")
	}
	if _, err := os.Stat(script); err != nil {
		Need(t, "Gemini CLI "+GeminiCLIVersion+" not installed (set SESSTOOL_GEMINI_CLI or run scripts/setup): "+err.Error())
	}
	node, err := exec.LookPath("node")
	if err != nil {
		Need(t, "node is not on PATH: Gemini CLI cannot run")
	}
	abs, _ := filepath.Abs(script)
	return node, abs
}
