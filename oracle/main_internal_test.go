package oracle

import (
	"strings"
	"testing"
)

// The package's own harness: the binary it built runs, and a failing
// command's exit code comes back.
func TestHarnessRunsSesstool(t *testing.T) {
	if out := sesstool(t, "detect", "../testdata/samples/tree/pi-v3-branches.jsonl"); !strings.Contains(out, "tree v3") {
		t.Fatalf("detect: %q", out)
	}
	if _, _, code := run(t, "validate", "no/such/path"); code != 3 {
		t.Fatalf("validate of a missing path exited %d, want 3", code)
	}
}
