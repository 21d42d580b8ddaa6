package flat_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/flat"
	"github.com/sesstool/sesstool/internal/fuzzcheck"
)

// FuzzFlat: the flat reader and validator never panic, an accepted file
// reads without error, and converts to a valid session in every layout.
// Seeds: testdata/fuzz/FuzzFlat (go run ./internal/fuzzcheck/seedgen).
func FuzzFlat(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fuzzcheck.Check(t, flat.New(), p)
		fuzzcheck.CheckStream(t, flat.New(), data)
	})
}
