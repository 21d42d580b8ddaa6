package idset

import (
	"strings"
	"testing"
)

// TestIndex: packed short ids stay exact (no two ids share a key, NUL
// bytes and lengths included) and each gives back every id.
func TestIndex(t *testing.T) {
	ids := []string{"", "a", "a\x00", "\x00a", "\x00", "abcdefgh", "abcdefg", "abcdefgh\x00", "abcdefghi", "1234abcd", "1234ABCD", "00000000", "ffffffff", "0000000g", "é", strings.Repeat("x", 40)}
	var x Index
	for i, id := range ids {
		if _, ok := x.Get(id); ok {
			t.Fatalf("%q found before it was added", id)
		}
		x.Put(id, int32(i))
	}
	for i, id := range ids {
		if k, ok := x.Get(id); !ok || k != int32(i) {
			t.Errorf("get(%q) = %d, %v; want %d", id, k, ok, i)
		}
	}
	seen := map[string]int32{}
	x.Each(func(id string, k int32) { seen[id] = k })
	if len(seen) != len(ids) {
		t.Fatalf("each gave %d ids, want %d: %q", len(seen), len(ids), seen)
	}
	for i, id := range ids {
		if seen[id] != int32(i) {
			t.Errorf("each: %q -> %d, want %d", id, seen[id], i)
		}
	}
}

// TestHashed: every id put is found with its index, and ids never put are
// not, long and short alike.
func TestHashed(t *testing.T) {
	var h Hashed
	ids := []string{"", "a", "toolu_012yuiPP1VAfh196GXaAmT8D", "toolu_012yuiPP1VAfh196GXaAmT8E", "call_1", strings.Repeat("x", 100)}
	for i, id := range ids[1:] {
		h.Put(id, int32(i))
	}
	for i, id := range ids[1:] {
		if k, ok := h.Get(id); !ok || k != int32(i) {
			t.Errorf("Get(%q) = %d, %v; want %d", id, k, ok, i)
		}
	}
	if h.Has(ids[0]) || h.Has("toolu_012yuiPP1VAfh196GXaAmT8F") {
		t.Error("an id never put is found")
	}
	if h.Len() != len(ids)-1 {
		t.Errorf("Len() = %d, want %d", h.Len(), len(ids)-1)
	}
}
