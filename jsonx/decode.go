package jsonx

import (
	"encoding/json"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Decode parses one JSON text, as strictly as encoding/json.Valid, straight
// into the value form the JSON Schema library validates (what its
// UnmarshalJSON makes: map[string]any, []any, string, json.Number, bool,
// nil). It replaces a syntax pass plus an encoding/json decode, which the
// profile showed to be over 40% of validation time.
//
// Strings without escapes share b's memory instead of being copied, so b
// must not change while the value is in use. The caller checks UTF-8 first.
// ok is false for any syntax error; SyntaxError then gives the message.
func Decode(b []byte) (v any, ok bool) { return new(Decoder).Decode(b) }

// Valid reports whether b is one JSON text exactly as encoding/json.Valid
// does (UTF-8 is not checked), building nothing: SyntaxError's fast path.
func Valid(b []byte) bool {
	d := Decoder{b: b, scan: true}
	d.space()
	if _, ok := d.value(); !ok {
		return false
	}
	d.space()
	return d.i == len(d.b)
}

// Decoder is Decode with memory reused from one text to the next; the zero
// value is ready. Unescaped strings go into its arena and its maps and
// slices are cleared for the next text, so a value must be dropped before
// the next Decode (the validate engine validates a line and formats its
// findings first).
type Decoder struct {
	b     []byte
	i     int
	depth int
	arena []byte
	scan  bool // Valid: check only, build nothing
	// Maps and slices of the previous text, reused for the next: decoding a
	// line then allocates almost nothing, which keeps the collector, and so
	// peak memory, quiet.
	maps       []map[string]any
	arrays     [][]any
	nmap, narr int
}

// Decode parses b; see the package function Decode.
func (d *Decoder) Decode(b []byte) (v any, ok bool) {
	*d = Decoder{b: b, arena: d.arena[:0], maps: d.maps, arrays: d.arrays}
	if cap(d.arena) < len(b) {
		// Unescaping never makes a string longer, so one arena the size of
		// the text holds every string in it without growing.
		d.arena = make([]byte, 0, len(b))
	}
	d.space()
	v, ok = d.value()
	if len(d.maps) > maxReused {
		d.maps = nil
	}
	if len(d.arrays) > maxReused {
		d.arrays = nil
	}
	if !ok {
		return nil, false
	}
	d.space()
	return v, d.i == len(d.b)
}

func (d *Decoder) newMap() map[string]any {
	if d.nmap < len(d.maps) {
		m := d.maps[d.nmap]
		clear(m)
		d.nmap++
		return m
	}
	m := make(map[string]any, 8)
	d.maps = append(d.maps, m)
	d.nmap++
	return m
}

// maxReused bounds what a decoder keeps between texts, so one huge line
// does not pin its maps for the rest of the file.
const maxReused = 4096

// maxDepth is encoding/json's nesting limit, so both accept the same texts.
const maxDepth = 10000

func (d *Decoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *Decoder) value() (any, bool) {
	if d.i >= len(d.b) {
		return nil, false
	}
	switch c := d.b[d.i]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		return d.str()
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	case c == 't':
		return true, d.lit("true")
	case c == 'f':
		return false, d.lit("false")
	case c == 'n':
		return nil, d.lit("null")
	}
	return nil, false
}

func (d *Decoder) lit(s string) bool {
	if len(d.b)-d.i < len(s) || string(d.b[d.i:d.i+len(s)]) != s {
		return false
	}
	d.i += len(s)
	return true
}

func (d *Decoder) object() (any, bool) {
	if d.depth++; d.depth > maxDepth {
		return nil, false
	}
	d.i++ // {
	var m map[string]any
	if !d.scan {
		m = d.newMap()
	}
	d.space()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		d.depth--
		return m, true
	}
	for {
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return nil, false
		}
		d.i++
		d.space()
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		if !d.scan {
			m[k.(string)] = v
		}
		d.space()
		if d.i >= len(d.b) {
			return nil, false
		}
		switch d.b[d.i] {
		case ',':
			d.i++
			d.space()
		case '}':
			d.i++
			d.depth--
			return m, true
		default:
			return nil, false
		}
	}
}

func (d *Decoder) array() (any, bool) {
	if d.depth++; d.depth > maxDepth {
		return nil, false
	}
	d.i++ // [
	if d.scan {
		return d.scanArray()
	}
	slot := d.narr
	a := []any{}
	if slot < len(d.arrays) {
		if r := d.arrays[slot]; r != nil {
			a = r[:0]
		}
	} else {
		d.arrays = append(d.arrays, nil)
	}
	d.narr++
	d.space()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		d.depth--
		return a, true
	}
	for {
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		a = append(a, v)
		d.space()
		if d.i >= len(d.b) {
			return nil, false
		}
		switch d.b[d.i] {
		case ',':
			d.i++
			d.space()
		case ']':
			d.i++
			d.depth--
			d.arrays[slot] = a
			return a, true
		default:
			return nil, false
		}
	}
}

func digit(c byte) bool { return c >= '0' && c <= '9' }

func (d *Decoder) number() (any, bool) {
	start := d.i
	b := d.b
	if b[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(b) && b[d.i] == '0':
		d.i++
	case d.i < len(b) && digit(b[d.i]):
		for d.i < len(b) && digit(b[d.i]) {
			d.i++
		}
	default:
		return nil, false
	}
	if d.i < len(b) && b[d.i] == '.' {
		d.i++
		if d.i >= len(b) || !digit(b[d.i]) {
			return nil, false
		}
		for d.i < len(b) && digit(b[d.i]) {
			d.i++
		}
	}
	if d.i < len(b) && (b[d.i] == 'e' || b[d.i] == 'E') {
		d.i++
		if d.i < len(b) && (b[d.i] == '+' || b[d.i] == '-') {
			d.i++
		}
		if d.i >= len(b) || !digit(b[d.i]) {
			return nil, false
		}
		for d.i < len(b) && digit(b[d.i]) {
			d.i++
		}
	}
	if d.scan {
		return nil, true
	}
	return json.Number(view(b[start:d.i])), true
}

// str reads a string token; d.b[d.i] is its opening quote.
func (d *Decoder) str() (any, bool) {
	d.i++
	start := d.i
	b := d.b
	for d.i < len(b) {
		c := b[d.i]
		switch {
		case c == '"' && d.scan:
			d.i++
			return nil, true
		case c == '"':
			s := view(b[start:d.i])
			d.i++
			return s, true
		case c == '\\' && d.scan:
			d.i += 2 // the escape is checked below, in scanEscape
			if !d.scanEscape() {
				return nil, false
			}
			continue
		case c == '\\':
			return d.escaped(start)
		case c < 0x20:
			return nil, false
		}
		d.i++
	}
	return nil, false
}

// escaped finishes a string with escapes, from its first backslash, into a
// new string, decoding exactly as encoding/json does (a lone surrogate
// becomes U+FFFD).
func (d *Decoder) escaped(start int) (any, bool) {
	b := d.b
	from := len(d.arena)
	out := append(d.arena, b[start:d.i]...)
	for d.i < len(b) {
		c := b[d.i]
		switch {
		case c == '"':
			d.i++
			d.arena = out
			return view(out[from:]), true
		case c < 0x20:
			return nil, false
		case c != '\\':
			out = append(out, c)
			d.i++
			continue
		}
		d.i++
		if d.i >= len(b) {
			return nil, false
		}
		switch b[d.i] {
		case '"', '\\', '/':
			out = append(out, b[d.i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(b[d.i+1:])
			if r < 0 {
				return nil, false
			}
			d.i += 4
			if utf16.IsSurrogate(r) {
				if d.i+2 < len(b) && b[d.i+1] == '\\' && b[d.i+2] == 'u' {
					r2 := hex4(b[d.i+3:])
					if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
						out = utf8.AppendRune(out, dec)
						d.i += 7
						continue
					}
				}
				r = unicode.ReplacementChar
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, false
		}
		d.i++
	}
	return nil, false
}

func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// view is b as a string without a copy; b must not change afterwards.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func (d *Decoder) scanArray() (any, bool) {
	d.space()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		d.depth--
		return nil, true
	}
	for {
		if _, ok := d.value(); !ok {
			return nil, false
		}
		d.space()
		if d.i >= len(d.b) {
			return nil, false
		}
		switch d.b[d.i] {
		case ',':
			d.i++
			d.space()
		case ']':
			d.i++
			d.depth--
			return nil, true
		default:
			return nil, false
		}
	}
}

// scanEscape checks the escape whose backslash is at d.i-2 and leaves d.i
// after it.
func (d *Decoder) scanEscape() bool {
	b := d.b
	if d.i-1 >= len(b) {
		return false
	}
	switch b[d.i-1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	case 'u':
		if hex4(b[d.i:]) < 0 {
			return false
		}
		d.i += 4
		return true
	}
	return false
}
