package migrate

import (
	"slices"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/tidwall/gjson"
)

// line is one entry line on its way through the steps. The line is walked
// once (where its top-level members are); a step reads members and records
// edits, and the edits of every step are applied in one pass when the line
// is written. The result is byte for byte what splicing each edit into the
// line in turn gives: a set member keeps its place and only its value
// changes, a new member goes after the last one (as JavaScript's insertion
// order and JSON.stringify put it), and a deleted member takes one
// neighbouring comma with it.
type line struct {
	n      int    // 1-based physical line number in the input
	pos    int    // pi's array index: non-blank lines counted, header 0
	b      []byte // the raw JSON object, without its line terminator
	typ    string // the entry's "type"
	header bool

	ms   []jsonx.Member // b's top-level members, in order
	open int            // offset of b's '{'

	repl  []repl  // new values of members of b
	adds  []add   // new members, in the order they were added
	del   int     // index into ms of the deleted member, or -1
	inner []inner // new values inside a member's value
	arena []byte  // the bytes of every new value and key
	out   []byte  // the line as written, reused from line to line
}

type span struct{ from, to int } // a range of arena

type repl struct {
	m   int // index into ms
	val span
}

type add struct{ key, val span }

type inner struct {
	from, to int // the range of b replaced
	val      span
}

// reset makes l the line b, walking its top-level members. ok is false when
// b is not a JSON object the walk can place; the steps then must not run.
func (l *line) reset(b []byte) (ok bool) {
	l.b = b
	l.ms, l.repl, l.adds, l.inner, l.arena = l.ms[:0], l.repl[:0], l.adds[:0], l.inner[:0], l.arena[:0]
	l.del = -1
	w, ok := jsonx.WalkObject(b)
	if !ok {
		return false
	}
	l.open = w.Open()
	for m, more := w.Next(); more; m, more = w.Next() {
		l.ms = append(l.ms, m)
	}
	return !w.Bad()
}

func (l *line) keep(v []byte) span {
	s := span{len(l.arena), 0}
	l.arena = append(l.arena, v...)
	s.to = len(l.arena)
	return s
}

func (l *line) keepString(v string) span {
	s := span{len(l.arena), 0}
	l.arena = append(l.arena, v...)
	s.to = len(l.arena)
	return s
}

func (l *line) bytesOf(s span) []byte { return l.arena[s.from:s.to] }

// find returns the index of the first member of b with key k, or -1.
func (l *line) find(k string) int {
	for i, m := range l.ms {
		if m.KeyIs(l.b, k) {
			return i
		}
	}
	return -1
}

// get returns the raw value of top-level member k as the line now stands,
// or nil when there is none.
func (l *line) get(k string) []byte {
	l.settle()
	if i := l.find(k); i >= 0 {
		for _, r := range l.repl {
			if r.m == i {
				return l.bytesOf(r.val)
			}
		}
		return l.b[l.ms[i].ValStart:l.ms[i].ValEnd]
	}
	for _, a := range l.adds {
		if string(l.bytesOf(a.key)) == k {
			return l.bytesOf(a.val)
		}
	}
	return nil
}

// result is get as gjson reads a value (the zero Result when absent).
func (l *line) result(k string) gjson.Result {
	if v := l.get(k); v != nil {
		return gjson.ParseBytes(v)
	}
	return gjson.Result{}
}

// set gives top-level member k the JSON value v: in place when the line has
// a member k, else as a new last member. k must be plain ASCII.
func (l *line) set(k string, v []byte) {
	l.settle()
	if i := l.find(k); i >= 0 {
		for j := range l.repl {
			if l.repl[j].m == i {
				l.repl[j].val = l.keep(v)
				return
			}
		}
		if l.covered(l.ms[i].ValStart, l.ms[i].ValEnd) {
			l.materialize()
			l.set(k, v)
			return
		}
		l.repl = append(l.repl, repl{i, l.keep(v)})
		return
	}
	for j := range l.adds {
		if string(l.bytesOf(l.adds[j].key)) == k {
			l.adds[j].val = l.keep(v)
			return
		}
	}
	l.adds = append(l.adds, add{l.keepString(k), l.keep(v)})
}

// remove deletes top-level member k, if the line has one.
func (l *line) remove(k string) {
	l.settle()
	i := l.find(k)
	if i < 0 {
		for _, a := range l.adds {
			if string(l.bytesOf(a.key)) == k {
				l.materialize() // a member a step added: rare, so done the slow way
				l.remove(k)
				return
			}
		}
		return
	}
	l.del = i
}

// getIn finds member k of the object value of the first top-level member
// outer that has one, as gjson's path "outer.k" does. It returns the
// member's value and where it is in b.
func (l *line) getIn(outer, k string) (v gjson.Result, from, to int, ok bool) {
	l.settle()
	for i, m := range l.ms {
		if !m.KeyIs(l.b, outer) {
			continue
		}
		obj := l.b[m.ValStart:m.ValEnd]
		w, isObj := jsonx.WalkObject(obj)
		if !isObj {
			continue
		}
		for im, more := w.Next(); more; im, more = w.Next() {
			if im.KeyIs(obj, k) {
				if l.replaced(i) {
					l.materialize() // the value was set as a whole: look in the new one
					return l.getIn(outer, k)
				}
				return im.Value(obj), m.ValStart + im.ValStart, m.ValStart + im.ValEnd, true
			}
		}
	}
	return gjson.Result{}, 0, 0, false
}

// setIn replaces the range from:to of b that getIn returned with v.
func (l *line) setIn(from, to int, v []byte) {
	l.inner = append(l.inner, inner{from, to, l.keep(v)})
}

func (l *line) replaced(i int) bool {
	for _, r := range l.repl {
		if r.m == i {
			return true
		}
	}
	return false
}

// covered reports whether an edit inside a value already touches from:to.
func (l *line) covered(from, to int) bool {
	for _, e := range l.inner {
		if e.from < to && from < e.to {
			return true
		}
	}
	return false
}

// settle applies a deletion before anything else reads or edits the line,
// so every other edit is known to come before it (a deletion is the last
// thing any step does to a line, so in practice this never runs).
func (l *line) settle() {
	if l.del >= 0 {
		l.materialize()
	}
}

// materialize applies the edits so far to a copy of the line and walks the
// copy again (rare: see settle and set).
func (l *line) materialize() {
	l.reset(l.render(nil))
}

// edited reports whether any step changed the line.
func (l *line) edited() bool {
	return len(l.repl) > 0 || len(l.adds) > 0 || len(l.inner) > 0 || l.del >= 0
}

// edit is one change of b in render: from:to replaced by ins (or by the
// new members' text).
type edit struct {
	from, to int
	ins      []byte
	adds     bool
}

// render appends the line with its edits applied to dst.
func (l *line) render(dst []byte) []byte {
	if !l.edited() {
		return append(dst, l.b...)
	}
	var buf [8]edit
	edits := buf[:0]
	for _, r := range l.repl {
		if r.m != l.del {
			edits = append(edits, edit{from: l.ms[r.m].ValStart, to: l.ms[r.m].ValEnd, ins: l.bytesOf(r.val)})
		}
	}
	dropComma := false
	if l.del >= 0 {
		d, ms := l.del, l.ms
		var e edit
		switch {
		case d > 0: // from the end of the previous value: drops ",<key>:<value>"
			e = edit{from: ms[d-1].ValEnd, to: ms[d].ValEnd}
		case len(ms) > 1: // the first of several: drops "<key>:<value>,"
			e = edit{from: ms[0].KeyStart, to: ms[1].KeyStart}
		default: // the only member of b: new members follow without a comma
			e = edit{from: ms[0].KeyStart, to: ms[0].ValEnd}
			dropComma = true
		}
		edits = append(edits, e)
		for _, in := range l.inner {
			if in.to <= e.from || in.from >= e.to {
				edits = append(edits, edit{from: in.from, to: in.to, ins: l.bytesOf(in.val)})
			}
		}
	} else {
		for _, in := range l.inner {
			edits = append(edits, edit{from: in.from, to: in.to, ins: l.bytesOf(in.val)})
		}
	}
	if len(l.adds) > 0 {
		at := l.open + 1
		if len(l.ms) > 0 {
			at = l.ms[len(l.ms)-1].ValEnd
		}
		edits = append(edits, edit{from: at, to: at, adds: true})
	}
	slices.SortStableFunc(edits, func(a, b edit) int { return a.from - b.from })
	at := 0
	for _, e := range edits {
		if e.from < at {
			continue // overlapping edits cannot be made by the steps
		}
		dst = append(dst, l.b[at:e.from]...)
		if e.adds {
			dst = l.appendAdds(dst, len(l.ms) > 0 && !dropComma)
		} else {
			dst = append(dst, e.ins...)
		}
		at = e.to
	}
	return append(dst, l.b[at:]...)
}

func (l *line) appendAdds(dst []byte, comma bool) []byte {
	for i, a := range l.adds {
		if i > 0 || comma {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, l.bytesOf(a.key)...)
		dst = append(dst, '"', ':')
		dst = append(dst, l.bytesOf(a.val)...)
	}
	return dst
}
