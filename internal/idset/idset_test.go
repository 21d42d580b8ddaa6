package idset

import (
	"encoding/binary"
	"math/rand/v2"
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
	h.Put("a", 41) // a later call with the same id: the last put wins, as a map's would
	if k, ok := h.Get("a"); !ok || k != 41 || h.Len() != len(ids)-1 {
		t.Errorf("after Put again: Get = %d, %v and Len() = %d; want 41, true, %d", k, ok, h.Len(), len(ids)-1)
	}
}

// TestUUIDsSet: Set replaces a key's value, from a slot's value to one in
// the overflow map and back, and adds a key not there, as a map's
// assignment does.
func TestUUIDsSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	want := map[[16]byte]int32{}
	var x UUIDs
	var keys [][16]byte
	for i := range 20000 {
		var k [16]byte
		if i%3 == 0 || len(keys) == 0 {
			for j := range k {
				k[j] = byte(rng.Uint32())
			}
			keys = append(keys, k)
		} else {
			k = keys[rng.IntN(len(keys))]
		}
		v := int32(rng.IntN(100))
		if i%5 == 0 {
			v = 1<<23 + int32(i) // past a slot's 23 bits
		}
		x.Set(k, v)
		want[k] = v
	}
	if x.Len() != len(want) {
		t.Errorf("Len() = %d, want %d", x.Len(), len(want))
	}
	for k, w := range want {
		if v, ok := x.Get(k); !ok || v != w {
			t.Fatalf("Get(%x) = %d, %v; want %d", k, v, ok, w)
		}
	}
	over := 0
	for _, w := range want {
		if w >= 1<<23-1 {
			over++
		}
	}
	if len(x.over) != over {
		t.Errorf("%d values kept past the slots, want %d (a replaced one left behind?)", len(x.over), over)
	}
}

// TestUUIDs: against a map, keys of every pattern (random; sequential;
// sharing all but one byte; the all-zero key) are found after they are
// added, with their value, and keys never added are not; adding a key
// again keeps its first value; values past 23 bits and growth through
// every shard size keep all of it exact.
func TestUUIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var keys [][16]byte
	keys = append(keys, [16]byte{})
	for i := range 40000 {
		var k [16]byte
		binary.BigEndian.PutUint64(k[8:], uint64(i)) // sequential
		keys = append(keys, k)
		k = [16]byte{}
		k[i%16] = byte(i / 16)
		k[(i+5)%16] ^= byte(i / 4096) // one byte or two set
		keys = append(keys, k)
		for j := range k {
			k[j] = byte(rng.Uint32())
		}
		keys = append(keys, k)
	}
	// Keys whose mixed forms share a shard and their first word, or all but
	// its last bits, or start at the shard's last slot: one shard's runs
	// grow long and run past its tail.
	for i := range 3000 {
		keys = append(keys, unmix(0x42<<56|0x1234, uint64(i)), unmix(0x42<<56|uint64(i), 7), unmix(0x43<<56|low56, uint64(i)))
	}
	want := map[[16]byte]int32{}
	var x UUIDs
	for i, k := range keys {
		v := int32(i)
		if i%1000 == 7 {
			v = 1<<23 - 2 + int32(i%3) // the last value a slot holds, and past it
		}
		old, had := x.Add(k, v)
		w, dup := want[k]
		if had != dup || had && old != w {
			t.Fatalf("Add(%x) = %d, %v; want %d, %v", k, old, had, w, dup)
		}
		if !dup {
			want[k] = v
		}
	}
	if x.Len() != len(want) {
		t.Errorf("Len() = %d, want %d", x.Len(), len(want))
	}
	for k, w := range want {
		if v, ok := x.Get(k); !ok || v != w {
			t.Fatalf("Get(%x) = %d, %v; want %d", k, v, ok, w)
		}
	}
	for range 100000 {
		var k [16]byte
		for j := range k {
			k[j] = byte(rng.Uint32())
		}
		if _, ok := want[k]; ok {
			continue
		}
		if v, ok := x.Get(k); ok {
			t.Fatalf("Get(%x) = %d for a key never added", k, v)
		}
	}
}

// unmix is the key mix turns into (a, b): mix's three Feistel rounds undo
// themselves when run again.
func unmix(a, b uint64) [16]byte {
	a ^= mix64(b)
	b ^= mix64(a)
	a ^= mix64(b)
	var k [16]byte
	binary.BigEndian.PutUint64(k[:8], a)
	binary.BigEndian.PutUint64(k[8:], b)
	return k
}

// TestUnmix: the test's keys are what they are meant to be.
func TestUnmix(t *testing.T) {
	for _, w := range [][2]uint64{{0, 0}, {1, 2}, {0x42<<56 | 0x1234, 99}, {^uint64(0), 5}} {
		if a, b := mix(unmix(w[0], w[1])); a != w[0] || b != w[1] {
			t.Errorf("mix(unmix(%x, %x)) = %x, %x", w[0], w[1], a, b)
		}
	}
}
