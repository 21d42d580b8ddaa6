package idset

import (
	"encoding/binary"
	"math/bits"
)

// UUIDs maps 16-byte keys (UUIDs, packed) to small non-negative integers
// (line numbers) in 18 bytes a key and a little slack, 20.8 bytes a key in
// all: a validator that remembers the uuids of a million lines keeps about
// 21 MB, where a Go map of [16]byte keys and int32 values took 37 MB (its
// slots' padding and load), and the streaming commands' memory limit lets
// the heap grow to twice what is live (main_runtime.go).
//
// Exact: a key is turned by a bijection (so no two keys share a form) into
// two 64-bit words; the top byte of the first chooses one of 256 shards, and
// the shard keeps the other 15 bytes whole, so no key is ever taken for
// another. Each shard is an array kept in key order with gaps, a key at or
// after the slot its top bits name (a linear-probing table in Robin Hood
// order, which a monotone slot function makes sorted): a lookup scans from
// that slot until a larger key, and growing merges in one linear pass. A
// shard grows alone, by an eighth once large, so growth never holds a second
// copy of the whole table, and the table is 83-93% full.
type UUIDs struct {
	shards [256]uuidShard
	n      int
	// over holds values a slot's 23 bits cannot: line numbers past 8
	// million (a file of 8 GB and more).
	over map[[2]uint64]int32
}

const (
	slotSize = 18 // 15 bytes of key, 3 of value and a flag
	low56    = 1<<56 - 1
	used     = 1 << 63   // in word 0: the slot holds a key
	overVal  = 1<<23 - 1 // the value is in over
	maxLoad  = 0.93      // more costs time: a key added moves the rest of its run
)

// uuidShard's slots: word 0 (little endian) is the key's first word without
// its shard byte, then on top the value's low 7 bits and the used flag;
// word 1 the key's second word; then the value's other 16 bits. One load
// tells a scan both whether a slot is used and how its key compares.
type uuidShard struct {
	slots []byte
	home  int // the slots a key's top bits choose among; the rest is tail
	n     int
}

// Len is the number of keys put.
func (t *UUIDs) Len() int { return t.n }

// Get returns k's value.
func (t *UUIDs) Get(k [16]byte) (int32, bool) {
	a, b := mix(k)
	s := &t.shards[a>>56]
	i, found := s.find(a&low56, b)
	if !found {
		return 0, false
	}
	return t.value(s, i, a, b), true
}

// Add puts k with value v unless k is there already; it returns the value k
// had and whether it had one. v must not be negative.
func (t *UUIDs) Add(k [16]byte, v int32) (int32, bool) {
	a, b := mix(k)
	s := &t.shards[a>>56]
	i, found := s.find(a&low56, b)
	if found {
		return t.value(s, i, a, b), true
	}
	s.insert(i, a&low56, b, t.code(a, b, v), int(a>>56))
	t.n++
	return 0, false
}

// Set puts k with value v, replacing the value k had. v must not be
// negative.
func (t *UUIDs) Set(k [16]byte, v int32) {
	a, b := mix(k)
	s := &t.shards[a>>56]
	i, found := s.find(a&low56, b)
	if !found {
		s.insert(i, a&low56, b, t.code(a, b, v), int(a>>56))
		t.n++
		return
	}
	if s.val(i) == overVal {
		delete(t.over, [2]uint64{a, b})
	}
	s.set(i, a&low56, b, t.code(a, b, v))
}

// code is what a slot holds for v: v itself, or the mark that it is in over.
func (t *UUIDs) code(a, b uint64, v int32) uint32 {
	code := uint32(v)
	if v < 0 || code >= overVal {
		if t.over == nil {
			t.over = map[[2]uint64]int32{}
		}
		t.over[[2]uint64{a, b}] = v
		code = overVal
	}
	return code
}

func (t *UUIDs) value(s *uuidShard, i int, a, b uint64) int32 {
	v := s.val(i)
	if v == overVal {
		return t.over[[2]uint64{a, b}]
	}
	return int32(v)
}

// mix is a bijection of 128 bits (three Feistel rounds), so that keys
// written in any pattern (sequential, sharing a prefix) spread evenly.
func mix(k [16]byte) (a, b uint64) {
	a = binary.BigEndian.Uint64(k[:8])
	b = binary.BigEndian.Uint64(k[8:])
	a ^= mix64(b)
	b ^= mix64(a)
	a ^= mix64(b)
	return a, b
}

// mix64 is splitmix64's finalizer.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func (s *uuidShard) word0(i int) uint64 { return binary.LittleEndian.Uint64(s.slots[i*slotSize:]) }

func (s *uuidShard) isUsed(i int) bool { return s.slots[i*slotSize+7]&0x80 != 0 }

func (s *uuidShard) val(i int) uint32 {
	o := i * slotSize
	return uint32(s.slots[o+7]&0x7f) | uint32(s.slots[o+16])<<7 | uint32(s.slots[o+17])<<15
}

func (s *uuidShard) set(i int, a, b uint64, v uint32) {
	o := i * slotSize
	binary.LittleEndian.PutUint64(s.slots[o:], a|uint64(v&0x7f)<<56|used)
	binary.LittleEndian.PutUint64(s.slots[o+8:], b)
	s.slots[o+16] = byte(v >> 7)
	s.slots[o+17] = byte(v >> 15)
}

func (s *uuidShard) len() int { return len(s.slots) / slotSize }

// start is the first slot a (the key's first word, 56 bits) may be in.
func (s *uuidShard) start(a uint64) int {
	hi, _ := bits.Mul64(a<<8, uint64(s.home))
	return int(hi)
}

// find returns the slot holding (a, b), or the slot it would go in.
func (s *uuidShard) find(a, b uint64) (int, bool) {
	if s.home == 0 {
		return 0, false
	}
	n := s.len()
	for i := s.start(a); i < n; i++ {
		w := s.word0(i)
		if w&used == 0 {
			return i, false
		}
		if x := w & low56; x != a {
			if x > a {
				return i, false
			}
			continue
		}
		if y := binary.LittleEndian.Uint64(s.slots[i*slotSize+8:]); y >= b {
			return i, y == b
		}
	}
	return n, false
}

// insert puts (a, b) at slot i, which find returned, moving the run of
// keys from there one slot on; it grows the shard when it is full. phase
// is the shard's number, which staggers the shards' growth.
func (s *uuidShard) insert(i int, a, b uint64, v uint32, phase int) {
	if float64(s.n+1) > maxLoad*float64(s.home) {
		s.grow(phase)
		i, _ = s.find(a, b)
	}
	for {
		e := i
		for e < s.len() && s.isUsed(e) {
			e++
		}
		if e < s.len() {
			copy(s.slots[(i+1)*slotSize:(e+1)*slotSize], s.slots[i*slotSize:e*slotSize])
			s.set(i, a, b, v)
			s.n++
			return
		}
		s.grow(phase) // the run reached the end of the tail
		i, _ = s.find(a, b)
	}
}

// grow makes room for more keys: twice while the shard is small, then an
// eighth more, so the table stays 83-93% full. Keys spread evenly over the
// shards, so they would all grow at once, and the whole table would be 83%
// full just after; starting each shard's eighths at its own size spreads
// their growth, and the table stays about 87% full at any size.
func (s *uuidShard) grow(phase int) {
	var home int
	switch {
	case s.home < 8:
		home = 8
	case s.home < 512:
		home = 2 * s.home
	case s.home == 512:
		home = 1024 + 128*phase/256 // over one eighth
	default:
		home = s.home + s.home/8
	}
	old := *s
	for !s.rebuild(&old, home) {
		home += home / 8 // the keys ran past the tail: more room
	}
}

// rebuild lays old's keys out over home starting slots. They are in order,
// so each goes in the first free slot at or after its start; it reports
// false when they run past the tail.
func (s *uuidShard) rebuild(old *uuidShard, home int) bool {
	*s = uuidShard{home: home, slots: make([]byte, (home+tail(home))*slotSize), n: old.n}
	next := 0
	for i := 0; i < old.len(); i++ {
		w := old.word0(i)
		if w&used == 0 {
			continue
		}
		j := max(s.start(w&low56), next)
		if j >= s.len() {
			return false
		}
		copy(s.slots[j*slotSize:(j+1)*slotSize], old.slots[i*slotSize:(i+1)*slotSize])
		next = j + 1
	}
	return true
}

// tail is how many slots past the last start a shard keeps, for the keys
// whose run goes past it: a few, as at 93% full a run seldom passes the end
// by more, and one that does makes the shard grow.
func tail(home int) int { return 16 + home/128 }
