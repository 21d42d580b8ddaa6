package idset

import (
	"math/rand/v2"
	"testing"
)

// TestUUIDsDense: the table keeps its memory per key (what the 1 GB Claude
// Code validate's peak RSS rests on) at every size past the first
// doublings, whether the shards have just grown or are about to.
func TestUUIDsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var x UUIDs
	for i := 1; i <= 400000; i++ {
		var k [16]byte
		for j := range k {
			k[j] = byte(rng.Uint32())
		}
		x.Add(k, int32(i))
		if i >= 300000 && i%20000 == 0 {
			if per := float64(x.bytes()) / float64(i); per > 21.5 {
				t.Errorf("%d keys: %.2f bytes a key, want at most 21.5", i, per)
			}
		}
	}
}

func (t *UUIDs) bytes() (n int) {
	for i := range t.shards {
		n += len(t.shards[i].slots)
	}
	return n
}
