package codex_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/codex"
	"github.com/sesstool/sesstool/internal/fuzzcheck"
)

// FuzzCodex: the Codex reader and validator never panic, an accepted
// rollout reads without error, and converts to a valid session in every
// layout. Seeds: the samples, added here.
func FuzzCodex(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/samples/codex/home/sessions/*/*/*/*.jsonl")
	seeds = append(seeds, "../../testdata/samples/codex/pre-wrapper.jsonl", "../../testdata/samples/codex/ts-era.json")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "rollout.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fuzzcheck.Check(t, codex.Format{}, p)
		fuzzcheck.CheckStream(t, codex.Format{}, data)
	})
}
