package tree_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/tree"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
)

// FuzzTreeConvert adds to FuzzTree (which writes back as tree) the shared
// properties: an accepted file reads without error, and converts to a valid
// session in every layout, both from a file and through the stream
// functions standard input uses. Seeds: testdata/fuzz/FuzzTreeConvert.
//
// One conversion an input, to the layout the input picks; every layout:
// TestSeedsConvertEverywhere.
func FuzzTreeConvert(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.CheckOne(t, tree.Format{}, sessionFile(t, data), data)
		fuzzcheck.CheckStream(t, tree.Format{}, data)
	})
}

// TestSeedsConvertEverywhere: every seed of FuzzTreeConvert that
// validates converts to a valid session in every layout.
func TestSeedsConvertEverywhere(t *testing.T) {
	for _, in := range fuzzcheck.Corpus(t, "FuzzTreeConvert") {
		fuzzcheck.Check(t, tree.Format{}, sessionFile(t, in[0]))
	}
}

func sessionFile(t *testing.T, data []byte) string {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
