package tree

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/session"
)

// TestTransientSameEntries: a reader told Transient gives the same entries
// as one that copies each line, without Raw, and entries kept while later
// lines are read do not change (nothing they hold points into the buffer).
func TestTransientSameEntries(t *testing.T) {
	files, err := filepath.Glob("testdata/valid/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no valid samples: %v", err)
	}
	files = append(files, shared.Samples(t, "pi/*.jsonl")...) // real sessions, v1 among them
	for _, path := range files {
		want := readFile(t, path).Entries
		r, err := Format{}.Open(format.Ref{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		tr, ok := r.(interface{ Transient() })
		if !ok {
			t.Fatalf("%s: the tree reader has no Transient", path)
		}
		tr.Transient()
		got, err := session.ReadAll(r)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(got.Entries) != len(want) {
			t.Fatalf("%s: %d entries, want %d", path, len(got.Entries), len(want))
		}
		for i, e := range got.Entries {
			if e.Raw != nil {
				t.Errorf("%s: entry %d keeps Raw", path, i)
			}
			w := *want[i]
			w.Raw = nil
			if !reflect.DeepEqual(e, &w) {
				t.Errorf("%s: entry %d (line %d) differs when transient:\n got %+v\nwant %+v", path, i, w.Line, e, &w)
			}
		}
	}
}
