package peers

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// QwenCodeVersion is the Qwen Code release scripts/setup installs and the
// real-agent tests (oracle/qwen_*) run.
const QwenCodeVersion = "0.24.4"

// QwenCode returns node's path and the absolute path of Qwen Code's entry
// script: $SESSTOOL_QWEN_CODE, else where scripts/setup unpacks
// @qwen-code/qwen-code. The package is bundled JavaScript, so it runs
// with the node on PATH.
func QwenCode(t testing.TB) (node, entry string) {
	t.Helper()
	entry = os.Getenv("SESSTOOL_QWEN_CODE")
	if entry == "" {
		entry = filepath.Join(RepoRoot(), ".cache", "agents", "qwen-code-"+QwenCodeVersion, "package", "cli-entry.js")
	}
	if _, err := os.Stat(entry); err != nil {
		Need(t, "Qwen Code "+QwenCodeVersion+" is not installed (set SESSTOOL_QWEN_CODE or run scripts/setup): "+err.Error())
	}
	node, err := exec.LookPath("node")
	if err != nil {
		Need(t, "node is not on PATH: Qwen Code cannot run")
	}
	abs, _ := filepath.Abs(entry)
	return node, abs
}
