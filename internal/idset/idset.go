// Package idset maps session entry ids to small integers in little memory.
package idset

import (
	"encoding/binary"
	"strings"
)

// Index maps entry ids to indexes in little memory: pi's ids are 8
// characters, so an id of up to 8 bytes is packed, exactly, into a uint64
// key (a map slot of 12 bytes instead of a string header, its bytes and the
// value); longer ids go in a map by string. A session of millions of entries
// keeps the validator's memory flat enough for its soft limit.
type Index struct {
	short [9]map[uint64]int32 // by length 0..8
	long  map[string]int32
}

func pack(id string) uint64 {
	var b [8]byte
	copy(b[:], id)
	return binary.LittleEndian.Uint64(b[:])
}

// Get returns id's index.
func (x *Index) Get(id string) (int32, bool) {
	if len(id) <= 8 {
		k, ok := x.short[len(id)][pack(id)]
		return k, ok
	}
	k, ok := x.long[id]
	return k, ok
}

// Put records id's index; id need not stay unchanged afterwards.
func (x *Index) Put(id string, k int32) {
	if len(id) <= 8 {
		m := x.short[len(id)]
		if m == nil {
			m = map[uint64]int32{}
			x.short[len(id)] = m
		}
		m[pack(id)] = k
		return
	}
	if x.long == nil {
		x.long = map[string]int32{}
	}
	x.long[strings.Clone(id)] = k // id may point into the line
}

// Each calls f for every id (in no particular order).
func (x *Index) Each(f func(id string, k int32)) {
	for n, m := range x.short {
		for key, k := range m {
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], key)
			f(string(b[:n]), k)
		}
	}
	for id, k := range x.long {
		f(id, k)
	}
}
