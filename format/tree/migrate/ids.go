package migrate

// The ids the 1 -> 2 step hands out are 8 lowercase hex digits: 32 bits.
// A session can hold millions of entries, and the validator (running
// alongside) keeps its own index of them, so the step keeps its ids as
// 32-bit numbers: a set of those handed out, to derive no id twice, and the
// id of each position, for firstKeptEntryIndex.

// hexSet is a set of 32-bit ids: open addressing, at most half full, so
// 4 to 8 bytes an id (a map takes over 20).
type hexSet struct {
	slots []uint32 // 0 is an empty slot
	n     int
	zero  bool // whether 0 itself is in the set
}

func (s *hexSet) slot(v uint32) int {
	return int((v * 0x9e3779b1) >> (32 - bitsOf(len(s.slots))))
}

func bitsOf(n int) uint {
	b := uint(0)
	for 1<<b < n {
		b++
	}
	return b
}

func (s *hexSet) has(v uint32) bool {
	if v == 0 {
		return s.zero
	}
	if len(s.slots) == 0 {
		return false
	}
	mask := len(s.slots) - 1
	for i := s.slot(v); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case v:
			return true
		case 0:
			return false
		}
	}
}

func (s *hexSet) add(v uint32) {
	if v == 0 {
		s.zero = true
		return
	}
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := len(s.slots) - 1
	for i := s.slot(v); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case v:
			return
		case 0:
			s.slots[i] = v
			s.n++
			return
		}
	}
}

func (s *hexSet) grow() {
	old := s.slots
	s.slots = make([]uint32, max(1024, 2*len(old)))
	s.n = 0
	for _, v := range old {
		if v != 0 {
			s.add(v)
		}
	}
}

// hexByPos holds the id given to each position (pi's index of an entry);
// positions without one (the header, skipped lines) have none.
type hexByPos struct {
	v   []uint32
	set []uint64 // bit i: position i has an id
}

func (p *hexByPos) put(pos int, v uint32) {
	for len(p.v) <= pos {
		p.v = append(p.v, 0)
	}
	for len(p.set) <= pos/64 {
		p.set = append(p.set, 0)
	}
	p.v[pos] = v
	p.set[pos/64] |= 1 << (pos % 64)
}

func (p *hexByPos) len() int { return len(p.v) }

func (p *hexByPos) has(pos int) bool { _, ok := p.get(pos); return ok }

func (p *hexByPos) get(pos int) (uint32, bool) {
	if pos < 0 || pos >= len(p.v) || p.set[pos/64]&(1<<(pos%64)) == 0 {
		return 0, false
	}
	return p.v[pos], true
}
