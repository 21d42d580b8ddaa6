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
// keeps the validator's memory flat enough for its soft limit. pi's ids
// are 8 lowercase hex digits, 32 bits, and those take a uint32 key: an
// 8-byte slot, where a uint64 key's slot is padded to 16.
type Index struct {
	hex   map[uint32]int32    // 8 lowercase hex digits
	short [9]map[uint64]int32 // by length 0..8, other than hex
	long  map[string]int32
}

// Hex8 returns the 32 bits that id spells when it is 8 lowercase hex
// digits, pi's entry id shape (exactly: no other id maps to them).
func Hex8(id string) (uint32, bool) {
	if len(id) != 8 {
		return 0, false
	}
	var v uint32
	for i := 0; i < 8; i++ {
		c := id[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			return 0, false
		}
		v = v<<4 | uint32(c)
	}
	return v, true
}

// Hex8String is the id Hex8 reads as v.
func Hex8String(v uint32) string {
	const digits = "0123456789abcdef"
	var b [8]byte
	for i := 7; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b[:])
}

func pack(id string) uint64 {
	var b [8]byte
	copy(b[:], id)
	return binary.LittleEndian.Uint64(b[:])
}

// Get returns id's index.
func (x *Index) Get(id string) (int32, bool) {
	if h, ok := Hex8(id); ok {
		k, ok := x.hex[h]
		return k, ok
	}
	if len(id) <= 8 {
		k, ok := x.short[len(id)][pack(id)]
		return k, ok
	}
	k, ok := x.long[id]
	return k, ok
}

// Put records id's index; id need not stay unchanged afterwards.
func (x *Index) Put(id string, k int32) {
	if h, ok := Hex8(id); ok {
		if x.hex == nil {
			x.hex = map[uint32]int32{}
		}
		x.hex[h] = k
		return
	}
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
	for h, k := range x.hex {
		f(Hex8String(h), k)
	}
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
