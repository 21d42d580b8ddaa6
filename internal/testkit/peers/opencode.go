// Package peers runs the real programs sesstool's output is checked against,
// for tests. A missing peer skips the test, or fails it when
// SESSTOOL_REQUIRE_PEERS=1 (CI), where a skip would hide a gap.
package peers

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
)

// Need skips t with why, or fails it under SESSTOOL_REQUIRE_PEERS=1.
func Need(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("SESSTOOL_REQUIRE_PEERS") == "1" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// RepoRoot is the nearest directory above the test's own with a go.mod.
func RepoRoot() string {
	d, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// OpenCode returns the absolute path of OpenCode 1.1.34's binary:
// $SESSTOOL_OPENCODE, else where scripts/setup installs it.
func OpenCode(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("SESSTOOL_OPENCODE")
	if bin == "" {
		bin = filepath.Join(RepoRoot(), ".cache", "opencode-1.1.34", "package", "bin", "opencode")
	}
	if _, err := os.Stat(bin); err != nil {
		Need(t, "OpenCode 1.1.34 not installed (set SESSTOOL_OPENCODE or run scripts/setup): "+err.Error())
	}
	abs, _ := filepath.Abs(bin)
	return abs
}

// OpenCodeExport runs `opencode export id` offline against the data
// directory home/data/opencode: HOME and the XDG dirs in home, from a
// directory that is not a git repository (so the project is "global"), in a
// network namespace of its own when unshare allows it, with every address
// it could reach pointed at a closed loopback port.
func OpenCodeExport(t testing.TB, bin, home, id string) []byte {
	t.Helper()
	work := filepath.Join(home, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{bin, "export", id}
	if exec.Command("unshare", "-rn", "true").Run() == nil {
		args = append([]string{"unshare", "-rn"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = work
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home,
		"XDG_DATA_HOME=" + filepath.Join(home, "data"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "cache"), "XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		"OPENCODE_MODELS_URL=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	// Into a file, not a pipe: OpenCode 1.1.34 exits before a pipe has taken
	// more than 64 KiB of its output, and the export comes out cut short.
	out := filepath.Join(home, id+".export.json")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = f
	hung, err := hangwatch.Run(cmd, hangwatch.Default)
	f.Close()
	if err != nil || hung != "" {
		t.Fatalf("opencode export %s: %v %s\n%s", id, err, hung, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
