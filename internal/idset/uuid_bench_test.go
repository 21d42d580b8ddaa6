package idset

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkUUIDs adds a million random keys, looks each up once (as a
// parent link does) and reports the table's bytes a key.
func BenchmarkUUIDs(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := make([][16]byte, 1<<20)
	for i := range keys {
		for j := range keys[i] {
			keys[i][j] = byte(rng.Uint32())
		}
	}
	for b.Loop() {
		var x UUIDs
		for i, k := range keys {
			x.Add(k, int32(i))
		}
		for _, k := range keys {
			x.Get(k)
		}
		b.ReportMetric(float64(x.bytes())/float64(len(keys)), "B/key")
	}
}
