package claude

import (
	"strings"
	"testing"
)

// TestIDs: every kind of id (a UUID, packed; an upper-case UUID; a short
// id, NUL bytes and lengths included; a long one) is found after it is put,
// with its line, and no other id is taken for it; adding it again keeps
// the first line.
func TestIDs(t *testing.T) {
	all := []string{
		"8565db80-925a-45e5-8912-159a151b6d24", "8565DB80-925A-45E5-8912-159A151B6D24",
		"toolu_018GZVh9ymkrdx1TnR8reg5Y", "", "a", "a\x00", "\x00a", "\x00",
		strings.Repeat("x", 30), strings.Repeat("x", 31), strings.Repeat("x", 32), strings.Repeat("y", 80),
	}
	var x ids
	for i, id := range all {
		if _, ok := x.get(id); ok {
			t.Fatalf("%q found before it was put", id)
		}
		if prev, dup := x.add(id, int32(i+1)); dup {
			t.Fatalf("add(%q) = %d, true before it was put", id, prev)
		}
		if prev, dup := x.add(id, int32(i+100)); !dup || prev != int32(i+1) {
			t.Errorf("add(%q) again = %d, %v; want %d, true (the first line kept)", id, prev, dup, i+1)
		}
		for j, seen := range all[:i+1] {
			if n, ok := x.get(seen); !ok || n != int32(j+1) {
				t.Errorf("after putting %q: get(%q) = %d, %v; want %d", id, seen, n, ok, j+1)
			}
		}
	}
}
