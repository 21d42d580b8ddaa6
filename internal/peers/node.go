package peers

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Scripts returns the folder scripts/setup fills with ../shared/peers and
// its node_modules ($SESSTOOL_PEERS, else .cache/peers), and node's path.
func Scripts(t testing.TB) (node, dir string) {
	t.Helper()
	dir = os.Getenv("SESSTOOL_PEERS")
	if dir == "" {
		dir = filepath.Join(RepoRoot(), ".cache", "peers")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		Need(t, "peer scripts not installed in "+dir+" (set SESSTOOL_PEERS or run scripts/setup)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		Need(t, "node is not on PATH: the peer scripts cannot run")
	}
	return node, dir
}

// Ajv returns node and the reference validator script, ajv-jsonl.mjs.
func Ajv(t testing.TB) (node, script string) {
	t.Helper()
	node, dir := Scripts(t)
	return node, filepath.Join(dir, "ajv-jsonl.mjs")
}
