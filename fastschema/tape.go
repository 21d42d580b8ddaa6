package fastschema

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/sesstool/sesstool/jsonx"
)

// A tape is a JSON text parsed into a flat list of tokens, one per value
// (and one per object key), in text order. Containers know where their
// contents end, so a schema can be applied to any value as often as it needs
// (if/then, anyOf) without scanning bytes again, and nothing is allocated
// once a tape's slice has grown to fit.
type tape struct {
	b     []byte
	toks  []token
	depth int
	keys  map[string]struct{} // duplicate-key check for large objects
}

// kind is a token's JSON type.
type kind uint8

const (
	kNull kind = iota
	kBool
	kObject
	kArray
	kNumber
	kString
)

type token struct {
	kind kind
	// esc: a string that has escapes (its raw bytes are not its value);
	// plain: a number that is an integer literal of at most 18 digits;
	// truth: the value of a boolean.
	esc, plain, truth bool
	start, end        int // strings: the bytes between the quotes; numbers: the literal
	next              int // the index of the token after this value and its contents
	count             int // members of an object, elements of an array
}

// maxDepth bounds nesting; deeper texts are left to the full validator.
const maxDepth = 512

// parse fills t from b. It reports false for any text encoding/json.Valid
// would reject, for invalid UTF-8, for an object with the same key twice,
// and for what the fast path does not model (then the full validator
// decides).
func (t *tape) parse(b []byte) bool {
	t.b, t.toks, t.depth = b, t.toks[:0], 0
	i := jsonx.SkipSpace(b, 0)
	i, ok := t.value(i)
	return ok && jsonx.SkipSpace(b, i) == len(b)
}

func (t *tape) value(i int) (int, bool) {
	if i >= len(t.b) {
		return i, false
	}
	switch c := t.b[i]; {
	case c == '{':
		return t.object(i)
	case c == '[':
		return t.array(i)
	case c == '"':
		return t.str(i)
	case c == '-' || c >= '0' && c <= '9':
		return t.number(i)
	case c == 't':
		return t.literal(i, "true", kBool, true)
	case c == 'f':
		return t.literal(i, "false", kBool, false)
	case c == 'n':
		return t.literal(i, "null", kNull, false)
	}
	return i, false
}

func (t *tape) literal(i int, word string, k kind, truth bool) (int, bool) {
	if len(t.b)-i < len(word) || string(t.b[i:i+len(word)]) != word {
		return i, false
	}
	n := len(t.toks)
	t.toks = append(t.toks, token{kind: k, truth: truth, start: i, end: i + len(word), next: n + 1})
	return i + len(word), true
}

func (t *tape) object(i int) (int, bool) {
	if t.depth++; t.depth > maxDepth {
		return i, false
	}
	at := len(t.toks)
	t.toks = append(t.toks, token{kind: kObject, start: i})
	i = jsonx.SkipSpace(t.b, i+1)
	count := 0
	if i < len(t.b) && t.b[i] == '}' {
		return t.close(at, i+1, 0)
	}
	for {
		if i >= len(t.b) || t.b[i] != '"' {
			return i, false
		}
		var ok bool
		if i, ok = t.str(i); !ok {
			return i, false
		}
		i = jsonx.SkipSpace(t.b, i)
		if i >= len(t.b) || t.b[i] != ':' {
			return i, false
		}
		if i, ok = t.value(jsonx.SkipSpace(t.b, i+1)); !ok {
			return i, false
		}
		count++
		i = jsonx.SkipSpace(t.b, i)
		if i >= len(t.b) {
			return i, false
		}
		switch t.b[i] {
		case ',':
			i = jsonx.SkipSpace(t.b, i+1)
		case '}':
			if !t.uniqueKeys(at, count) {
				return i, false
			}
			return t.close(at, i+1, count)
		default:
			return i, false
		}
	}
}

func (t *tape) array(i int) (int, bool) {
	if t.depth++; t.depth > maxDepth {
		return i, false
	}
	at := len(t.toks)
	t.toks = append(t.toks, token{kind: kArray, start: i})
	i = jsonx.SkipSpace(t.b, i+1)
	if i < len(t.b) && t.b[i] == ']' {
		return t.close(at, i+1, 0)
	}
	count := 0
	for {
		var ok bool
		if i, ok = t.value(i); !ok {
			return i, false
		}
		count++
		i = jsonx.SkipSpace(t.b, i)
		if i >= len(t.b) {
			return i, false
		}
		switch t.b[i] {
		case ',':
			i = jsonx.SkipSpace(t.b, i+1)
		case ']':
			return t.close(at, i+1, count)
		default:
			return i, false
		}
	}
}

func (t *tape) close(at, end, count int) (int, bool) {
	t.depth--
	tok := &t.toks[at]
	tok.end, tok.count, tok.next = end, count, len(t.toks)
	return end, true
}

// smallObject is the most keys uniqueKeys checks pairwise; a larger
// object's keys go through a map.
const smallObject = 32

// uniqueKeys reports whether the object at index at has no key twice.
// Readers disagree about such objects, so they always go to the full path,
// which reports them; so do escaped keys, whose bytes are not their value.
func (t *tape) uniqueKeys(at, count int) bool {
	if count <= smallObject {
		// Pairwise, on a signature first (length, first and last byte):
		// cheaper than hashing every key of a line's dozen or two.
		var seen [smallObject]int
		var sigs [smallObject]uint32
		k := at + 1
		for n := 0; n < count; n++ {
			if t.toks[k].esc {
				return false
			}
			key := t.raw(k)
			sig := uint32(len(key))
			if len(key) > 0 {
				sig |= uint32(key[0])<<16 | uint32(key[len(key)-1])<<24
			}
			for i, s := range sigs[:n] {
				if s == sig && bytes.Equal(t.raw(seen[i]), key) {
					return false
				}
			}
			seen[n], sigs[n] = k, sig
			k = t.toks[k+1].next
		}
		return true
	}
	if t.keys == nil {
		t.keys = make(map[string]struct{}, count)
	}
	clear(t.keys)
	k := at + 1
	for n := 0; n < count; n++ {
		if t.toks[k].esc {
			return false
		}
		key := t.raw(k)
		if _, dup := t.keys[string(key)]; dup {
			return false
		}
		t.keys[string(key)] = struct{}{}
		k = t.toks[k+1].next
	}
	return true
}

// raw is the bytes of token k (for a string without escapes, its value).
// Callers compare it as string(raw), which Go does without a copy.
func (t *tape) raw(k int) []byte {
	return t.b[t.toks[k].start:t.toks[k].end]
}

// text is raw as a string, for the parsers in strconv.
func (t *tape) text(k int) string { return string(t.raw(k)) }

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// str scans a string starting at the quote b[i]. Eight bytes at a time, it
// looks for a quote, a backslash, a control character or a non-ASCII byte,
// the only bytes that need a closer look.
func (t *tape) str(i int) (int, bool) {
	b := t.b
	start := i + 1
	esc := false
	j := start
	for {
		for j+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[j:])
			m := hasZero(w^(ones*'"')) | hasZero(w^(ones*'\\')) | hasLess(w, 0x20) | w&highs
			if m == 0 {
				j += 8
				continue
			}
			j += bits.TrailingZeros64(m) / 8
			break
		}
		if j >= len(b) {
			return j, false
		}
		switch c := b[j]; {
		case c == '"':
			n := len(t.toks)
			t.toks = append(t.toks, token{kind: kString, esc: esc, start: start, end: j, next: n + 1})
			return j + 1, true
		case c == '\\':
			esc = true
			n, ok := escape(b, j)
			if !ok {
				return j, false
			}
			j += n
		case c < 0x20:
			return j, false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && size == 1 {
				return j, false
			}
			j += size
		default:
			j++
		}
	}
}

// escape checks the escape sequence at b[j] == '\\' and returns its length.
func escape(b []byte, j int) (int, bool) {
	if j+1 >= len(b) {
		return 0, false
	}
	switch b[j+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, true
	case 'u':
		if j+6 > len(b) {
			return 0, false
		}
		for _, c := range b[j+2 : j+6] {
			if !isHex(c) {
				return 0, false
			}
		}
		return 6, true
	}
	return 0, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// hasZero has the high bit set in the lowest byte of w that is zero (bytes
// above a zero byte may be flagged falsely, which callers never look at).
func hasZero(w uint64) uint64 { return (w - ones) & ^w & highs }

// hasLess flags bytes of w below n (n <= 128), exactly as hasZero does.
func hasLess(w uint64, n uint64) uint64 { return (w - ones*n) & ^w & highs }

// number scans a number literal with JSON's grammar. Literals the fast path
// does not compare exactly (long mantissas, large exponents) are refused
// and go to the full validator.
func (t *tape) number(i int) (int, bool) {
	b, start := t.b, i
	if b[i] == '-' {
		i++
	}
	digits := i
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = skipDigits(b, i)
	default:
		return i, false
	}
	plain := i-digits <= 18
	if i < len(b) && b[i] == '.' {
		plain = false
		if i+1 >= len(b) || !isDigit(b[i+1]) {
			return i, false
		}
		i = skipDigits(b, i+1)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		plain = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return i, false
		}
		e := i
		i = skipDigits(b, i)
		if i-e > 3 { // exponents past 999 are left to the full validator
			return i, false
		}
	}
	if i-start > 40 {
		return i, false
	}
	n := len(t.toks)
	t.toks = append(t.toks, token{kind: kNumber, plain: plain, start: start, end: i, next: n + 1})
	return i, true
}

func skipDigits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
