package claude

import (
	"path/filepath"

	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// The schema folder works as it is in ajv, the reference validator: every
// line of the real sessions and of the hand-made store passes
// claude/v1/line.json, and the invalid case's two bad lines do not.
func TestSchemasInAjv(t *testing.T) {
	dir := "../../schema/claude/v1"
	files, _ := filepath.Glob(filepath.Join(store, "projects", "*", "*.jsonl"))
	files = append(files, filepath.Join(store, "projects", "-home-dev-app", "1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f9", "subagents", "agent-a1b2c3d.jsonl"), live2_1_332)
	for _, p := range realWorld(t) {
		refs, err := (Format{}).Sessions(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range refs {
			files = append(files, r.Path)
			files = append(files, subagentFiles(r.Path, fileSessionID(r.Path))...)
		}
	}
	bad := "testdata/invalid/bad.jsonl"
	got := peers.AjvFiles(t, dir, filepath.Join(dir, "line.json"), append(files, bad))
	for _, f := range files {
		if n := got[f]; n.Lines == 0 || n.Invalid != 0 {
			t.Errorf("%s: ajv rejects a valid file: %+v", f, n)
		}
	}
	if n := got[bad]; n.Invalid != 2 {
		t.Errorf("bad.jsonl: ajv does not find its two invalid lines: %+v", n)
	}
}
