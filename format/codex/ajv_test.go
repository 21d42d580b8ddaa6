package codex_test

import (
	"path/filepath"

	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
)

// TestSchemasInAjv proves the schema folder works as it is in a standard
// validator: ajv loads every schema by $id and checks each line of the
// samples, the real rollouts and the invalid cases against
// codex/v1/line.json, and agrees with sesstool on which the schema refuses.
func TestSchemasInAjv(t *testing.T) {
	dir := "../../schema/codex/v1"
	cases := []struct {
		file  string
		valid bool
	}{
		{"../../testdata/samples/codex/pre-wrapper.jsonl", true},
		{"testdata/invalid/schema.jsonl", false},
		{"testdata/invalid/no-meta.jsonl", true}, // every line is valid; the header rule is sesstool's
	}
	home, _ := filepath.Glob("../../testdata/samples/codex/home/sessions/*/*/*/*.jsonl")
	real, _ := filepath.Glob(filepath.Join(shared.Dir(), "real-world", "codex", "*.jsonl"))
	if len(home) < 3 {
		t.Fatalf("only %d sample rollouts", len(home))
	}
	for _, f := range append(home, real...) {
		cases = append(cases, struct {
			file  string
			valid bool
		}{f, true})
	}
	var files []string
	for _, c := range cases {
		files = append(files, c.file)
	}
	got := peers.AjvFiles(t, dir, filepath.Join(dir, "line.json"), files)
	for _, c := range cases {
		n := got[c.file]
		if c.valid && (n.Lines == 0 || n.Invalid != 0) {
			t.Errorf("%s: ajv rejects a valid rollout: %+v", c.file, n)
		}
		if !c.valid && n.Invalid == 0 {
			t.Errorf("%s: ajv accepts an invalid rollout: %+v", c.file, n)
		}
	}
}
