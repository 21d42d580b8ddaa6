package peers

import (
	"os"
	"path/filepath"
	"testing"
)

// OpenCodeAgentVersion is the OpenCode release the real-agent tests run
// (oracle/opencode_*), installed by scripts/setup; OpenCode 1.1.34
// (OpenCode) stays the reader of the JSON tree.
const OpenCodeAgentVersion = "1.18.33"

// OpenCodeAgent returns the absolute path of OpenCode 1.18.33's binary:
// $SESSTOOL_OPENCODE_AGENT, else where scripts/setup installs it.
func OpenCodeAgent(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("SESSTOOL_OPENCODE_AGENT")
	if bin == "" {
		bin = filepath.Join(RepoRoot(), ".cache", "agents", "opencode-"+OpenCodeAgentVersion, "package", "bin", "opencode")
	}
	if _, err := os.Stat(bin); err != nil {
		Need(t, "OpenCode "+OpenCodeAgentVersion+" not installed (set SESSTOOL_OPENCODE_AGENT or run scripts/setup): "+err.Error())
	}
	abs, _ := filepath.Abs(bin)
	return abs
}
