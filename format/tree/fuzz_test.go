package tree_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/tree"
	"github.com/sesstool/sesstool/internal/fuzzcheck"
)

// FuzzTreeConvert adds to FuzzTree (which writes back as tree) the shared
// properties: an accepted file reads without error, and converts to a valid
// session in every layout, both from a file and through the stream
// functions standard input uses. Seeds: testdata/fuzz/FuzzTreeConvert.
func FuzzTreeConvert(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fuzzcheck.Check(t, tree.Format{}, p)
		fuzzcheck.CheckStream(t, tree.Format{}, data)
	})
}
