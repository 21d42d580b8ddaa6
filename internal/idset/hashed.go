package idset

import (
	"encoding/binary"
	"hash/maphash"
)

// Hashed maps strings of any length (tool call ids: 30 characters and more,
// which Index keeps whole) to indexes by a 128-bit hash of each, kept in a
// UUIDs table (about 21 bytes a string, where a Go map of the hashes took
// 40 and more), so a writer or validator that remembers every call of a
// session stays flat in session size. Two ids share a hash with a
// probability of about n²/2¹²⁹ for n ids (below 10⁻²⁰ for a billion).
type Hashed struct {
	t UUIDs
}

// Two independent seeds, fixed for the process: the hash is never written
// anywhere, so it need not be the same from one run to the next.
var seed0, seed1 = maphash.MakeSeed(), maphash.MakeSeed()

func hash128(s string) [16]byte {
	var k [16]byte
	binary.LittleEndian.PutUint64(k[:8], maphash.String(seed0, s))
	binary.LittleEndian.PutUint64(k[8:], maphash.String(seed1, s))
	return k
}

// Get returns s's index.
func (h *Hashed) Get(s string) (int32, bool) { return h.t.Get(hash128(s)) }

// Has reports whether s was put.
func (h *Hashed) Has(s string) bool { _, ok := h.t.Get(hash128(s)); return ok }

// Put records s's index, replacing the one it had; s is not kept. k must
// not be negative.
func (h *Hashed) Put(s string, k int32) { h.t.Set(hash128(s), k) }

// Len is the number of strings put.
func (h *Hashed) Len() int { return h.t.Len() }
