package jsonx

import (
	"math"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string the way JavaScript's JSON.stringify
// and Python's json.dumps(ensure_ascii=False) spell it: only the quote, the
// backslash and control characters are escaped; <, >, &, U+2028 and U+2029 are
// left alone (Go's encoding/json escapes them, which would change bytes).
// Invalid UTF-8 becomes U+FFFD. It takes bytes as well as strings, so text
// rendered into a reused buffer is encoded without a copy.
func AppendString[T string | []byte](dst []byte, s T) []byte {
	return append(AppendEscaped(append(dst, '"'), s), '"')
}

// AppendEscaped appends what AppendString puts between the quotes: a
// string's text written in pieces this way is the text written whole, so
// long as no piece ends inside a character (then each part of it becomes
// U+FFFD).
func AppendEscaped[T string | []byte](dst []byte, s T) []byte {
	start := 0
	for i := 0; i < len(s); {
		// eight plain ASCII bytes at a time: most of a session's text;
		// when one is not plain, straight to it (the lowest byte the mask
		// marks is one: a borrow only marks bytes above a match), rather
		// than testing the eight again from each byte before it
		for i+8 <= len(s) {
			if m := notPlain8(load8(s, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if safe[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		// at most 4 bytes: converted on the stack, no allocation
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			i++
			start = i
			continue
		}
		i += size
	}
	return append(dst, s[start:]...)
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// load8 reads s[i:i+8] as one little-endian word.
func load8[T string | []byte](s T, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// notPlain8 marks (with its high bit) each of the eight bytes in w that
// needs escaping or is outside ASCII, and maybe bytes above the lowest
// such one.
func notPlain8(w uint64) uint64 {
	q, b := w^(ones*'"'), w^(ones*'\\')
	return ((q-ones)&^q | (b-ones)&^b | (w-ones*0x20)&^w | w) & highs
}

// safe marks the ASCII bytes that stand for themselves in a JSON string.
var safe = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// String returns s encoded by AppendString.
func String(s string) []byte { return AppendString(nil, s) }

// AppendFloat appends f as JavaScript's Number#toString spells it (which is
// also what encoding/json does): the shortest digits that read back as f,
// in exponent form below 1e-6 and from 1e21, with no leading zero in the
// exponent. NaN and infinities, which JSON cannot hold, become null, as in
// JSON.stringify. Readers check every number they model this way, so it
// does not go through encoding/json's reflection.
func AppendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
		if n := len(dst); dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1] // e-07 -> e-7
			dst = dst[:n-1]
		}
		return dst
	}
	return strconv.AppendFloat(dst, f, 'f', -1, 64)
}

// Obj builds one compact JSON object with members in the order they are added.
type Obj struct {
	b     []byte
	start int  // where the object begins in b (ObjAt)
	open  bool // the '{' is written
}

// ObjAt starts an object appended to dst: Bytes returns dst followed by the
// object. A writer encodes a line and the objects nested in it (Append) into
// one buffer it reuses, instead of each object into its own, copied into
// the next.
func ObjAt(dst []byte) Obj { return Obj{b: dst, start: len(dst)} }

func (o *Obj) key(k string) {
	if !o.open {
		o.b = append(o.b, '{')
		o.open = true
	} else {
		o.b = append(o.b, ',')
	}
	o.b = AppendString(o.b, k)
	o.b = append(o.b, ':')
}

// Str adds a string member.
func (o *Obj) Str(k, v string) *Obj { o.key(k); o.b = AppendString(o.b, v); return o }

// Int adds an integer member.
func (o *Obj) Int(k string, v int64) *Obj { o.key(k); o.b = strconv.AppendInt(o.b, v, 10); return o }

// Float adds a number member.
func (o *Obj) Float(k string, v float64) *Obj { o.key(k); o.b = AppendFloat(o.b, v); return o }

// Bool adds a boolean member.
func (o *Obj) Bool(k string, v bool) *Obj { o.key(k); o.b = strconv.AppendBool(o.b, v); return o }

// Null adds a null member.
func (o *Obj) Null(k string) *Obj { o.key(k); o.b = append(o.b, "null"...); return o }

// Append adds a member whose value f appends, as JSON, to the buffer it is
// given (a nested object or array encoded in place).
func (o *Obj) Append(k string, f func(dst []byte) []byte) *Obj {
	o.key(k)
	o.b = f(o.b)
	return o
}

// Raw adds a member whose value is already JSON. An empty raw becomes null.
func (o *Obj) Raw(k string, v []byte) *Obj {
	o.key(k)
	if len(v) == 0 {
		o.b = append(o.b, "null"...)
	} else {
		o.b = append(o.b, v...)
	}
	return o
}

// Bytes returns the finished object ("{}" when empty).
func (o *Obj) Bytes() []byte {
	if !o.open {
		return append(o.b, "{}"...)
	}
	return append(o.b, '}')
}

// Arr builds one compact JSON array from already-encoded elements.
func Arr(elems [][]byte) []byte {
	n := 2 + len(elems)
	for _, e := range elems {
		n += len(e)
	}
	b := append(make([]byte, 0, n), '[')
	for i, e := range elems {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e...)
	}
	return append(b, ']')
}
