package qwen_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/qwen"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
)

// FuzzQwen: the Qwen Code reader and validator never panic, an accepted
// file reads without error, and converts to a valid session in the layout
// the input picks (every layout: TestSeedsConvertEverywhere).
// Seeds: testdata/fuzz/FuzzQwen (the samples, invalid cases, a byte order
// mark, odd parts and an unsafe session id).
func FuzzQwen(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.CheckOne(t, qwen.Format{}, sessionFile(t, data), data)
		fuzzcheck.CheckStream(t, qwen.Format{}, data)
	})
}

// TestSeedsConvertEverywhere: every seed of FuzzQwen that validates
// converts to a valid session in every layout.
func TestSeedsConvertEverywhere(t *testing.T) {
	for _, in := range fuzzcheck.Corpus(t, "FuzzQwen") {
		fuzzcheck.Check(t, qwen.Format{}, sessionFile(t, in[0]))
	}
}

func sessionFile(t *testing.T, data []byte) string {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
