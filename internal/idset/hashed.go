package idset

import "hash/maphash"

// Hashed maps strings of any length (tool call ids: 30 characters and more,
// which Index keeps whole) to indexes by a 128-bit hash of each, 20 bytes a
// slot, so a writer or validator that remembers every call of a session
// stays flat in session size. Two ids share a hash with a probability of
// about n²/2¹²⁹ for n ids (below 10⁻²⁰ for a billion).
type Hashed struct {
	m map[[2]uint64]int32
}

// Two independent seeds, fixed for the process: the hash is never written
// anywhere, so it need not be the same from one run to the next.
var seed0, seed1 = maphash.MakeSeed(), maphash.MakeSeed()

func hash128(s string) [2]uint64 {
	return [2]uint64{maphash.String(seed0, s), maphash.String(seed1, s)}
}

// Get returns s's index.
func (h *Hashed) Get(s string) (int32, bool) {
	k, ok := h.m[hash128(s)]
	return k, ok
}

// Has reports whether s was put.
func (h *Hashed) Has(s string) bool { _, ok := h.m[hash128(s)]; return ok }

// Put records s's index; s is not kept.
func (h *Hashed) Put(s string, k int32) {
	if h.m == nil {
		h.m = map[[2]uint64]int32{}
	}
	h.m[hash128(s)] = k
}

// Len is the number of strings put.
func (h *Hashed) Len() int { return len(h.m) }
