package qwen

import (
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// The schema folder works as it is in ajv, the reference validator: every
// line of the samples (one written by Qwen Code 0.24.4 itself) passes
// qwen/v1/line.json, and the schema case's three bad lines do not.
func TestSchemasInAjv(t *testing.T) {
	dir := "../../schema/qwen/v1"
	files, _ := filepath.Glob(filepath.Join(samples, "*.jsonl"))
	if len(files) < 2 {
		t.Fatalf("want the 2 samples, have %d", len(files))
	}
	bad := "testdata/invalid/schema.jsonl"
	got := peers.AjvFiles(t, dir, filepath.Join(dir, "line.json"), append(files, bad))
	for _, f := range files {
		if n := got[f]; n.Lines == 0 || n.Invalid != 0 {
			t.Errorf("%s: ajv rejects a valid file: %+v", f, n)
		}
	}
	if n := got[bad]; n.Invalid != 3 {
		t.Errorf("%s: ajv does not find its three invalid lines: %+v", bad, n)
	}
}
