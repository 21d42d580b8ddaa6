package jsonx

import (
	"bytes"
	"strings"

	"github.com/tidwall/gjson"
)

// Walking a JSON text a member at a time, by offsets, decoding nothing: the
// hot paths that need a handful of top-level fields of a line (the tree
// rules, the migration steps) find them all in one pass instead of one
// gjson lookup each, and a nested value is skipped by looking only for
// quotes and brackets. The input is expected to be valid JSON (a validator
// has checked it, or will, and its verdict wins); on anything else the walk
// stops with Bad set, never panics and never loops.

// Member is one member of an object (or element of an array) as offsets into
// the walked bytes.
type Member struct {
	KeyStart, KeyEnd int // the key with its quotes; -1 for an array element
	ValStart, ValEnd int // the value
}

// Walker walks the members of one object or the elements of one array.
type Walker struct {
	b     []byte
	i     int  // next byte to read
	close byte // '}' or ']'
	n     int  // members returned so far
	done  bool
	bad   bool
	start int // offset of the opening bracket
}

// WalkObject starts a walk over the object b (leading whitespace allowed).
// ok is false when b does not start with '{'.
func WalkObject(b []byte) (w Walker, ok bool) { return walk(b, '{', '}') }

// WalkArray starts a walk over the array b (leading whitespace allowed).
func WalkArray(b []byte) (w Walker, ok bool) { return walk(b, '[', ']') }

func walk(b []byte, open, close byte) (Walker, bool) {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != open {
		return Walker{done: true}, false
	}
	return Walker{b: b, i: i + 1, close: close, start: i}, true
}

// Open is the offset of the opening bracket.
func (w *Walker) Open() int { return w.start }

// Bad reports whether the walk stopped at something that is not JSON.
func (w *Walker) Bad() bool { return w.bad }

// Count is the number of members returned so far.
func (w *Walker) Count() int { return w.n }

// Next returns the next member, or false at the end (or at malformed input:
// see Bad).
func (w *Walker) Next() (Member, bool) {
	if w.done {
		return Member{}, false
	}
	b := w.b
	i := SkipSpace(b, w.i)
	if w.n > 0 {
		if i < len(b) && b[i] == ',' {
			i = SkipSpace(b, i+1)
		} else {
			return w.end(i)
		}
	} else if i < len(b) && b[i] == w.close {
		return w.end(i)
	}
	m := Member{KeyStart: -1, KeyEnd: -1}
	if w.close == '}' {
		if i >= len(b) || b[i] != '"' {
			return w.fail()
		}
		e := skipString(b, i)
		if e < 0 {
			return w.fail()
		}
		m.KeyStart, m.KeyEnd = i, e
		i = SkipSpace(b, e)
		if i >= len(b) || b[i] != ':' {
			return w.fail()
		}
		i = SkipSpace(b, i+1)
	}
	e := SkipValue(b, i)
	if e < 0 {
		return w.fail()
	}
	m.ValStart, m.ValEnd = i, e
	w.i = e
	w.n++
	return m, true
}

func (w *Walker) end(i int) (Member, bool) {
	if i >= len(w.b) || w.b[i] != w.close {
		return w.fail()
	}
	w.done = true
	w.i = i + 1
	return Member{}, false
}

func (w *Walker) fail() (Member, bool) {
	w.done, w.bad = true, true
	return Member{}, false
}

// Close is the offset of the closing bracket once Next has returned false
// without Bad.
func (w *Walker) Close() int { return w.i - 1 }

// KeyIs reports whether m's key in b is k. A key with escapes is compared
// decoded, as gjson compares it, so a lookup here finds what gjson.Get finds.
func (m Member) KeyIs(b []byte, k string) bool {
	raw := b[m.KeyStart+1 : m.KeyEnd-1]
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) == k
	}
	return gjson.ParseBytes(b[m.KeyStart:m.KeyEnd]).Str == k
}

// Value is m's value as gjson reads it on its own: what gjson.Get on the
// enclosing object returns for m's key (apart from Index).
func (m Member) Value(b []byte) gjson.Result {
	raw := view(b[m.ValStart:m.ValEnd])
	switch raw[0] {
	case '{', '[':
		return gjson.Result{Type: gjson.JSON, Raw: raw}
	case '"':
		if strings.IndexByte(raw, '\\') < 0 {
			return gjson.Result{Type: gjson.String, Raw: raw, Str: raw[1 : len(raw)-1]}
		}
	}
	return gjson.Parse(raw)
}

// SkipValue returns the offset just past the JSON value that starts at b[i],
// or -1 when there is none. Nested values are skipped by their quotes and
// brackets alone, which is exact for valid JSON.
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		return skipNested(b, i)
	case ',', ':', '}', ']':
		return -1
	}
	j := i
	for j < len(b) && !endsScalar[b[j]] {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

var endsScalar = [256]bool{',': true, '}': true, ']': true, ' ': true, '\t': true, '\r': true, '\n': true, '"': true, '{': true, '[': true, ':': true}

// structural marks the bytes a nested skip stops at.
var structural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true}

func skipNested(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		c := b[i]
		if !structural[c] {
			i++
			continue
		}
		switch c {
		case '"':
			e := skipString(b, i)
			if e < 0 {
				return -1
			}
			i = e
			continue
		case '{', '[':
			depth++
		default:
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return -1
}

// skipString returns the offset just past the string whose opening quote is
// b[i], or -1. The closing quote is found with IndexByte (vectorised), and a
// quote counts as closing when an even number of backslashes precede it.
func skipString(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		j++
	}
}

// SkipSpace returns the offset of the first byte at or after i that is not
// JSON whitespace.
func SkipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}
