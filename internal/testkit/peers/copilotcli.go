package peers

import (
	"os"
	"path/filepath"
	"testing"
)

// CopilotCLIVersion is the GitHub Copilot CLI release scripts/setup
// installs: its bundle's event schema is what schema/copilot is derived
// from.
const CopilotCLIVersion = "1.0.102"

// copilotDir is where scripts/setup unpacks the Linux x64 platform package
// of @github/copilot and, beside it, the bundle the binary carries.
func copilotDir() string {
	return filepath.Join(RepoRoot(), ".cache", "agents", "copilot-"+CopilotCLIVersion)
}

// CopilotCLI returns the absolute path of Copilot CLI's single executable:
// $SESSTOOL_COPILOT_CLI, else where scripts/setup unpacks it.
func CopilotCLI(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("SESSTOOL_COPILOT_CLI")
	if bin == "" {
		bin = filepath.Join(copilotDir(), "package", "copilot")
	}
	if _, err := os.Stat(bin); err != nil {
		Need(t, "GitHub Copilot CLI "+CopilotCLIVersion+" is not installed (set SESSTOOL_COPILOT_CLI or run scripts/setup): "+err.Error())
	}
	abs, _ := filepath.Abs(bin)
	return abs
}

// CopilotBundle returns the directory of Copilot CLI's unpacked bundle
// (index.js, schemas/, copilot-sdk/): $SESSTOOL_COPILOT_BUNDLE, else where
// scripts/setup unpacks it.
func CopilotBundle(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("SESSTOOL_COPILOT_BUNDLE")
	if dir == "" {
		dir = filepath.Join(copilotDir(), "pkg", "linux-x64", CopilotCLIVersion)
	}
	if _, err := os.Stat(filepath.Join(dir, "schemas", "session-events.schema.json")); err != nil {
		Need(t, "GitHub Copilot CLI "+CopilotCLIVersion+"'s bundle is not unpacked (set SESSTOOL_COPILOT_BUNDLE or run scripts/setup): "+err.Error())
	}
	abs, _ := filepath.Abs(dir)
	return abs
}

// CopilotPkgCache is the folder to give Copilot CLI as
// COPILOT_PKG_CACHE_HOME: the one holding the pkg/ its binary was unpacked
// into by scripts/setup, so that a run finds its bundle there instead of
// unpacking it again into the run's home.
func CopilotPkgCache(bin string) string {
	return filepath.Dir(filepath.Dir(bin)) // <dir>/package/copilot -> <dir>
}
