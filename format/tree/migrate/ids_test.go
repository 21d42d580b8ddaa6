package migrate

import (
	"github.com/sesstool/sesstool/internal/idset"
	"math/rand/v2"
	"testing"
)

func TestHex8(t *testing.T) {
	for id, want := range map[string]uint32{"00000000": 0, "0000000a": 10, "deadbeef": 0xdeadbeef, "ffffffff": 0xffffffff} {
		v, ok := idset.Hex8(id)
		if !ok || v != want || idset.Hex8String(v) != id {
			t.Errorf("%s: %x %v, back %s", id, v, ok, idset.Hex8String(v))
		}
	}
	for _, id := range []string{"", "0000000", "000000000", "DEADBEEF", "0000000g", "-0000000"} {
		if _, ok := idset.Hex8(id); ok {
			t.Errorf("%q read as an id", id)
		}
	}
}

// TestHexSet: the set agrees with a map over random ids, 0 and repeats
// included, through several growths.
func TestHexSet(t *testing.T) {
	var s hexSet
	m := map[uint32]bool{}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		v := r.Uint32()
		if i%1000 == 0 {
			v = 0
		}
		if i%7 == 0 {
			v = uint32(i % 500) // repeats
		}
		if s.has(v) != m[v] {
			t.Fatalf("has(%x) = %v before adding, map says %v", v, s.has(v), m[v])
		}
		s.add(v)
		m[v] = true
	}
	for v := range m {
		if !s.has(v) {
			t.Fatalf("%x lost", v)
		}
	}
	for i := 0; i < 100000; i++ {
		if v := r.Uint32(); s.has(v) != m[v] {
			t.Fatalf("has(%x) = %v, map says %v", v, s.has(v), m[v])
		}
	}
}

func TestHexByPos(t *testing.T) {
	var p hexByPos
	p.put(1, 0) // the id 00000000 is an id
	p.put(3, 7)
	p.put(130, 9)
	for pos, want := range map[int]bool{-1: false, 0: false, 1: true, 2: false, 3: true, 129: false, 130: true, 131: false} {
		if p.has(pos) != want {
			t.Errorf("has(%d) = %v", pos, !want)
		}
	}
	if v, _ := p.get(3); v != 7 || p.len() != 131 {
		t.Errorf("get(3) = %d, len %d", v, p.len())
	}
}
