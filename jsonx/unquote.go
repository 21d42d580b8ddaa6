package jsonx

import (
	"bytes"

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
	i := bytes.IndexByte(in, '\\')
	if i < 0 {
		if quoteOrControl(in) {
			return gjson.ParseBytes(q).Str, true
		}
		return string(in), true
	}
	if bytes.Contains(in, []byte(`\u`)) || quoteOrControl(in) {
		return gjson.ParseBytes(q).Str, true
	}
	out := make([]byte, 0, len(in))
	for {
		out = append(out, in[:i]...)
		if i+1 >= len(in) {
			break // a lone backslash at the end: gjson stops there
		}
		c := unescaped[in[i+1]]
		if c == 0 {
			break // gjson stops at an escape it does not know
		}
		out = append(out, c)
		in = in[i+2:]
		if i = bytes.IndexByte(in, '\\'); i < 0 {
			out = append(out, in...)
			break
		}
	}
	return string(out), true
}

// unescaped maps the character after a backslash to what it stands for
// (0: an escape gjson does not know).
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// quoteOrControl reports whether s, a string token's inside, holds a byte
// gjson treats apart: a quote no backslash escapes (the token then ends
// early, or does not end where it seems to) or a control character (where gjson stops). Neither is in valid
// JSON.
func quoteOrControl(s []byte) bool {
	for j := 0; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\':
			if j++; j == len(s) {
				return true // it escapes the closing quote
			}
		case c == '"' || c < ' ':
			return true
		}
	}
	return false
}
