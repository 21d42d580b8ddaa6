package flat_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/flat"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
)

// FuzzFlat: the flat reader and validator never panic, an accepted file
// reads without error, and converts to a valid session in the layout the
// input picks (every layout: TestSeedsConvertEverywhere).
// Seeds: testdata/fuzz/FuzzFlat (go run ./internal/testkit/fuzzcheck/seedgen).
func FuzzFlat(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.CheckOne(t, flat.New(), sessionFile(t, data), data)
		fuzzcheck.CheckStream(t, flat.New(), data)
	})
}

// TestSeedsConvertEverywhere: every seed of FuzzFlat that validates
// converts to a valid session in every layout.
func TestSeedsConvertEverywhere(t *testing.T) {
	for _, in := range fuzzcheck.Corpus(t, "FuzzFlat") {
		fuzzcheck.Check(t, flat.New(), sessionFile(t, in[0]))
	}
}

func sessionFile(t *testing.T, data []byte) string {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
