package ash

import (
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/schema"
)

// TestSchemasInAjv checks that the schema folder works as it is in ajv,
// the reference validator: the samples pass and a bad line fails.
func TestSchemasInAjv(t *testing.T) {
	node, script := peers.Ajv(t)
	dir := t.TempDir()
	if err := schema.Dump(dir); err != nil {
		t.Fatal(err)
	}
	// state.json is one document: flatten it to one JSONL line.
	state, err := os.ReadFile("testdata/generated-v2/sessions/cli/state.json")
	if err != nil {
		t.Fatal(err)
	}
	stateLine := filepath.Join(dir, "state.jsonl")
	if err := os.WriteFile(stateLine, []byte(strings.ReplaceAll(string(state), "\n", "")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cli := "testdata/generated-v2/sessions/cli/"
	for _, c := range []struct{ schema, data, want string }{
		{"ash/v2/line.json", cli + "context.jsonl", "11 lines, 0 invalid"},
		{"ash/v2/subagent-line.json", cli + "subagents/fb5a5abc-bbbb-4d30-a90d-e926458e34ed.jsonl", "2 lines, 0 invalid"},
		{"ash/v2/history.json", cli + "history.jsonl", "4 lines, 0 invalid"},
		{"ash/v2/state.json", stateLine, "1 lines, 0 invalid"},
		{"ash/v1/line.json", v1Sample + "/context.jsonl", "7 lines, 0 invalid"},
		{"ash/v2/line.json", upstreamDir(t, "invalid/unknown-content-block/context.jsonl"), "2 lines, 1 invalid"},
		{"ash/v2/line.json", upstreamDir(t, "invalid/header-missing-id/context.jsonl"), "1 lines, 1 invalid"},
	} {
		out, err := exec.Command(node, script, dir, filepath.Join(dir, c.schema), c.data).CombinedOutput()
		if err != nil && !strings.Contains(string(out), "invalid") {
			t.Fatalf("ajv %s %s: %v\n%s", c.schema, c.data, err, out)
		}
		if got := strings.TrimSpace(string(out)); got != c.want {
			t.Errorf("ajv %s on %s: %q, want %q", c.schema, c.data, got, c.want)
		}
	}
}
