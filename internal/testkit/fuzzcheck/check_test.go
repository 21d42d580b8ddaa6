package fuzzcheck

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/registry"
)

// A fuzz input costs one conversion (CheckOne), the layout picked by the
// input, and the inputs reach every layout; Check, the seeded tests'
// property, converts to all of them.
func TestCheckOneConvertsOnce(t *testing.T) {
	f, err := registry.Lookup("tree")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(Root(), "testdata", "samples", "tree", "pi-v3-branches.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ws := Writers()
	conversions = nil
	Check(t, f, p)
	if len(conversions) != len(ws) {
		t.Errorf("Check converted to %v, want each of %d layouts once", conversions, len(ws))
	}
	reached := map[string]bool{}
	for c := 0; c < 64; c++ {
		conversions = nil
		CheckOne(t, f, p, []byte{byte(c)})
		if len(conversions) != 1 {
			t.Fatalf("CheckOne with choice %d converted to %v, want one layout", c, conversions)
		}
		reached[conversions[0]] = true
	}
	if len(reached) != len(ws) {
		t.Errorf("the choices reach %d of %d layouts", len(reached), len(ws))
	}
}
