package codex_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/codex"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
)

// seeds are the samples: FuzzCodex's seeds, and the inputs
// TestSeedsConvertEverywhere converts to every layout.
func seeds(t testing.TB) [][]byte {
	paths, _ := filepath.Glob("../../testdata/samples/codex/home/sessions/*/*/*/*.jsonl")
	paths = append(paths, "../../testdata/samples/codex/pre-wrapper.jsonl", "../../testdata/samples/codex/ts-era.json")
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func rollout(t testing.TB, data []byte) string {
	p := filepath.Join(t.TempDir(), "rollout.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// FuzzCodex: the Codex reader and validator never panic, an accepted
// rollout reads without error, from a file and from a stream, and
// converts to a valid session in the layout the input picks (one
// conversion an input; every layout: the seeded test below).
func FuzzCodex(f *testing.F) {
	for _, b := range seeds(f) {
		f.Add(b)
	}
	p := fuzzcheck.Reused(f, "rollout.jsonl")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Rewrite(t, p, data)
		fuzzcheck.CheckOne(t, codex.Format{}, p, data)
		fuzzcheck.CheckStream(t, codex.Format{}, data)
	})
}

// TestSeedsConvertEverywhere: every seed that validates converts to a
// valid session in every layout.
func TestSeedsConvertEverywhere(t *testing.T) {
	for _, b := range seeds(t) {
		fuzzcheck.Check(t, codex.Format{}, rollout(t, b))
	}
}
