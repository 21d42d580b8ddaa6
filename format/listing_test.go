package format

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReadDirKept: a folder Strays listed with Keep is served once from
// that listing, and listed again when it changed since.
func TestReadDirKept(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, "part/m1/a.json")
	writeTree(t, root, "part/m2/a.json")
	c := Contents{Read: []string{"part/*/*.json"}, Keep: true}
	if s := c.Strays(root); len(s) != 0 {
		t.Fatalf("strays %v", s)
	}
	m1, m2 := filepath.Join(root, "part", "m1"), filepath.Join(root, "part", "m2")
	if _, ok := listings.Load(m1); !ok {
		t.Fatal("part/m1's listing was not kept")
	}
	// m2 changes after it was listed: its kept listing is stale.
	writeTree(t, root, "part/m2/b.json")
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(m2, later, later); err != nil { // a coarse clock cannot hide the change
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir  string
		want int
	}{{m1, 1}, {m2, 2}} {
		ents, err := ReadDir(tc.dir)
		if err != nil || len(ents) != tc.want {
			t.Errorf("ReadDir(%s): %d entries, %v; want %d", tc.dir, len(ents), err, tc.want)
		}
		if _, ok := listings.Load(tc.dir); ok {
			t.Errorf("%s: the kept listing is still held after it was served", tc.dir)
		}
	}
	// Without Keep nothing is held.
	listings.Clear()
	Contents{Read: []string{"part/*/*.json"}}.Strays(root)
	if _, ok := listings.Load(m1); ok {
		t.Error("a listing was kept without Keep")
	}
}
