package registry_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
	"github.com/sesstool/sesstool/registry"
)

// TestTeedReadsAsFile: for every layout whose reader can take its lines
// from its validator (format.Teed, export html's one read of a session),
// each .jsonl file of the layout's testdata reads the same both ways and
// validates with the same findings (fuzzcheck.CheckTeed), as a new
// layout's conformance. Each layout's fuzz target checks the same on its
// inputs.
func TestTeedReadsAsFile(t *testing.T) {
	teed := 0
	for _, l := range registry.Layouts {
		if _, ok := l.Format.(format.Teed); !ok {
			continue
		}
		st, ok := l.Format.(format.Stream)
		if !ok {
			t.Errorf("%s is Teed but not a single-file layout", l.Name())
			continue
		}
		teed++
		typ := reflect.TypeOf(l.Format)
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		dir := filepath.Join("..", "format", filepath.Base(typ.PkgPath()), "testdata")
		files := 0
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || strings.Contains(p, "/fuzz/") {
				return err
			}
			in, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files++
			fuzzcheck.CheckTeed(t, st, p, in)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if files < 3 {
			t.Errorf("%s: only %d test files in %s", l.Name(), files, dir)
		}
	}
	if teed < 3 {
		t.Errorf("only %d layouts are Teed: tree, flat and the model dump at least", teed)
	}
}
