package jsonx

import (
	"github.com/tidwall/gjson"
)

// Unquote returns the text of the JSON string token q (its quotes
// included, nothing around them) exactly as gjson.ParseBytes(q).Str reads
// it, and false when q is not a string. The readers decode every string of
// a session this way: the runs between escapes are copied whole, where
// gjson appends the text a byte at a time. A \u escape, rarer, is left to
// gjson, whose handling of surrogates is its own.
func Unquote(q []byte) (string, bool) {
	n := len(q)
	if n < 2 || q[0] != '"' || q[n-1] != '"' {
		r := gjson.ParseBytes(q)
		return r.Str, r.Type == gjson.String
	}
	in := q[1 : n-1]
	i := special(in, 0)
	if i == len(in) {
		return string(in), true
	}
	var out []byte
	from := 0 // in[from:i] is text not yet copied to out
	for i < len(in) {
		if in[i] != '\\' || i+1 == len(in) || in[i+1] == 'u' || unescaped[in[i+1]] == 0 {
			// a quote or control character (not in a valid token), a
			// backslash that escapes the closing quote, a \u escape or
			// one gjson does not know: gjson's own reading
			return gjson.ParseBytes(q).Str, true
		}
		if out == nil {
			out = make([]byte, 0, len(in))
		}
		out = append(append(out, in[from:i]...), unescaped[in[i+1]])
		from = i + 2
		i = special(in, from)
	}
	return string(append(out, in[from:]...)), true
}

// special returns the offset of the first quote, backslash or control
// character in s at or after i, or len(s); eight bytes at a time.
func special(s []byte, i int) int {
	zero := func(w uint64) uint64 { return (w - ones) & ^w & highs }
	for i+8 <= len(s) {
		w := load8(s, i)
		if zero(w^(ones*'"'))|zero(w^(ones*'\\'))|(w-ones*0x20)&^w&highs != 0 {
			break
		}
		i += 8
	}
	for i < len(s) && s[i] != '"' && s[i] != '\\' && s[i] >= ' ' {
		i++
	}
	return i
}

// unescaped maps the character after a backslash to what it stands for
// (0: an escape gjson does not know).
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}
