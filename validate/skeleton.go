package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// A line longer than LongLine is never held whole: a streaming scanner
// checks its UTF-8 and JSON syntax (worded as jsonx.SyntaxError words them)
// and keeps a skeleton of it, the same document with every string longer
// than longString cut to a short prefix, which the schema and the rules
// then see instead of the line (docs/robustness.md, Memory).
const (
	longString  = 4 << 10
	keepPrefix  = 64
	skeletonCap = 64 << 20
	maxDepth    = 10000 // encoding/json's, so a deep line gets the same finding
)

// scan states: what the next byte may be.
const (
	sValue        = iota // a value
	sValueOrClose        // a value or ']' (after '[')
	sKeyOrClose          // a key or '}' (after '{')
	sKey                 // a key (after ',' in an object)
	sColon               // ':'
	sAfter               // ',' or a closing bracket, or only space at the top
	sString
	sMinus // a number, from here to sExpDigits
	sZero
	sInt
	sDot
	sFrac
	sExp
	sExpSign
	sExpDigits
	sLiteral
)

// skeleton is the state of one long line's scan.
type skeleton struct {
	out      []byte     // the skeleton so far
	overflow string     // why no skeleton was kept ("" while one is)
	cuts     [][]string // where strings were cut, as pointer tokens
	cutLens  []int64
	syncs    [][2]int64 // after each cut: its offset in out and in the line

	state  int
	depth  int
	kinds  []uint64 // bit set per depth: 1 for an object
	path   []string
	index  []int
	isKey  bool
	str    []byte // the string being read, up to longString bytes
	strLen int64
	long   bool
	safe   int // a cut point in str not inside an escape or a character
	esc    int // 0, 1 after '\', 2..5 inside \uXXXX
	lit    string
	litPos int

	off      int64 // bytes scanned
	runes    int64 // characters before off
	lastRune int   // bytes of the last character
	synMsg   string
	synCol   int64

	uoff, uruns int64
	carry       []byte
	utfCol      int64 // column of the first invalid UTF-8, 0 for none
	bom         bool
	tooDeep     bool
	notBlank    bool   // a piece held more than white space
	size        int64  // bytes of the line
	head        []byte // its first bytes, what the rules see of a line with no skeleton
}

// Write scans the next piece of the line.
func (k *skeleton) Write(p []byte) {
	k.size += int64(len(p))
	k.notBlank = k.notBlank || len(bytes.TrimSpace(p)) > 0
	if n := len(k.head); n < longString {
		k.head = append(k.head, p[:min(len(p), longString-n)]...)
	}
	if k.off == 0 && k.uoff == 0 && len(p) >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf {
		k.bom = true
	}
	k.utf8(p)
	if k.synMsg != "" {
		return
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if k.state == sString && k.long && k.esc == 0 {
			// The body of a long string: only its end, an escape or a
			// control character matter, so skip to the next of those.
			j := i
			for j < len(p) && p[j] != '"' && p[j] != '\\' && p[j] >= 0x20 {
				if p[j]&0xc0 != 0x80 {
					k.runes++
					k.lastRune = 1
				} else {
					k.lastRune++
				}
				j++
			}
			k.strLen += int64(j - i)
			k.off += int64(j - i)
			i = j
			if i == len(p) {
				return
			}
			c = p[i]
		}
		if !k.step(c) {
			k.fail(c)
			return
		}
		if c&0xc0 != 0x80 {
			k.runes++
			k.lastRune = 1
		} else {
			k.lastRune++
		}
		k.off++
	}
}

// fail records the first syntax error, at byte c, in encoding/json's words.
func (k *skeleton) fail(c byte) {
	k.synMsg = fmt.Sprintf("invalid JSON: invalid character %s %s", quoteChar(c), k.context(c))
	k.synCol = k.runes + 1
}

func (k *skeleton) context(c byte) string {
	if k.tooDeep {
		return "exceeded max depth"
	}
	switch k.state {
	case sValue, sValueOrClose:
		return "looking for beginning of value"
	case sKeyOrClose, sKey:
		return "looking for beginning of object key string"
	case sColon:
		return "after object key"
	case sAfter:
		switch {
		case k.depth == 0:
			return "after top-level value"
		case k.inObject():
			return "after object key:value pair"
		}
		return "after array element"
	case sString:
		switch {
		case k.esc == 1:
			return "in string escape code"
		case k.esc > 1:
			return `in \u hexadecimal character escape`
		}
		return "in string literal"
	case sDot:
		return "after decimal point in numeric literal"
	case sExp, sExpSign:
		return "in exponent of numeric literal"
	case sLiteral:
		return fmt.Sprintf("in literal %s (expecting %s)", k.lit, quoteChar(k.lit[k.litPos]))
	}
	return "in numeric literal"
}

func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// finish ends the scan; msg and col are the finding for the line ("" when
// it is one well-formed JSON value in UTF-8).
func (k *skeleton) finish() (rule, msg string, col int64) {
	if len(k.carry) > 0 && k.utfCol == 0 {
		k.utfCol = k.uruns + 1
	}
	if k.utfCol > 0 {
		return "invalid-utf8", "invalid UTF-8", k.utfCol
	}
	if k.synMsg != "" {
		return "json-syntax", k.synMsg, k.synCol
	}
	switch k.state {
	case sZero, sInt, sFrac, sExpDigits:
		k.state = sAfter
	}
	if k.state != sAfter || k.depth != 0 {
		// encoding/json ends its input with a space, and words what that
		// space breaks; SyntaxError counts to the byte before the end.
		col := k.runes - 1 + int64(k.lastRune)
		if k.step(' ') {
			return "json-syntax", "invalid JSON: unexpected end of JSON input", col
		}
		k.fail(' ')
		return "json-syntax", k.synMsg, col
	}
	return "", "", 0
}

// utf8 checks p, carrying a character split between pieces.
func (k *skeleton) utf8(p []byte) {
	if k.utfCol > 0 {
		return
	}
	buf := p
	if len(k.carry) > 0 {
		buf = append(k.carry, p...)
		k.uoff -= int64(len(k.carry))
		k.carry = nil
	}
	cut := len(buf)
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-4; i-- {
		if buf[i]&0xc0 != 0x80 {
			if !utf8.FullRune(buf[i:]) {
				cut = i
			}
			break
		}
	}
	if !utf8.Valid(buf[:cut]) {
		for i := 0; i < cut; {
			r, size := utf8.DecodeRune(buf[i:])
			if r == utf8.RuneError && size == 1 {
				k.utfCol = k.uruns + 1
				return
			}
			k.uruns++
			i += size
		}
	}
	k.uruns += int64(utf8.RuneCount(buf[:cut]))
	k.uoff += int64(len(buf))
	k.carry = append([]byte(nil), buf[cut:]...)
}

func (k *skeleton) emit(b ...byte) {
	if k.overflow != "" {
		return
	}
	k.out = append(k.out, b...)
	if len(k.out) > skeletonCap {
		k.giveUp(fmt.Sprintf("its skeleton (the line with long strings cut) passes %d MiB", skeletonCap>>20))
	}
}

func (k *skeleton) giveUp(why string) {
	if k.overflow == "" {
		k.overflow, k.out, k.cuts, k.path, k.index, k.syncs = why, nil, nil, nil, nil, nil
	}
}

func (k *skeleton) inObject() bool {
	d := k.depth - 1
	return k.kinds[d/64]&(1<<(d%64)) != 0
}

func (k *skeleton) push(object bool) {
	d := k.depth
	for len(k.kinds) <= d/64 {
		k.kinds = append(k.kinds, 0)
	}
	k.kinds[d/64] &^= 1 << (d % 64)
	if object {
		k.kinds[d/64] |= 1 << (d % 64)
	}
	k.depth++
	if k.overflow == "" {
		k.path = append(k.path, "0")
		k.index = append(k.index, 0)
	}
}

func (k *skeleton) pop() {
	k.depth--
	if k.overflow == "" {
		k.path, k.index = k.path[:len(k.path)-1], k.index[:len(k.index)-1]
	}
	k.state = sAfter
}

// step takes one byte outside a long string's body; false is a syntax error.
func (k *skeleton) step(c byte) bool {
	switch k.state {
	case sString:
		return k.inString(c)
	case sMinus, sZero, sInt, sDot, sFrac, sExp, sExpSign, sExpDigits:
		if k.number(c) {
			k.emit(c)
			return true
		}
		switch k.state {
		case sMinus, sDot, sExp, sExpSign:
			return false
		}
		k.state = sAfter // the number ended: c belongs to what follows
	case sLiteral:
		if c != k.lit[k.litPos] {
			return false
		}
		k.emit(c)
		if k.litPos++; k.litPos == len(k.lit) {
			k.state = sAfter
		}
		return true
	}
	if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
		k.emit(c) // kept, so the skeleton differs from the line only where cut
		return true
	}
	switch k.state {
	case sValue, sValueOrClose:
		if c == ']' && k.state == sValueOrClose {
			k.emit(c)
			k.pop()
			return true
		}
		return k.value(c)
	case sKeyOrClose, sKey:
		if c == '}' && k.state == sKeyOrClose {
			k.emit(c)
			k.pop()
			return true
		}
		if c != '"' {
			return false
		}
		k.open(true)
		return true
	case sColon:
		if c != ':' {
			return false
		}
		k.emit(c)
		k.state = sValue
		return true
	}
	return k.after(c)
}

func (k *skeleton) after(c byte) bool {
	if k.depth == 0 {
		return false
	}
	obj := k.inObject()
	switch {
	case c == ',':
		k.emit(c)
		if obj {
			k.state = sKey
			return true
		}
		if k.overflow == "" {
			i := len(k.index) - 1
			k.index[i]++
			k.path[i] = strconv.Itoa(k.index[i])
		}
		k.state = sValue
	case c == '}' && obj, c == ']' && !obj:
		k.emit(c)
		k.pop()
	default:
		return false
	}
	return true
}

func (k *skeleton) value(c byte) bool {
	switch {
	case c == '{' || c == '[':
		if k.depth >= maxDepth {
			k.tooDeep = true
			return false
		}
		k.emit(c)
		k.push(c == '{')
		k.state = sKeyOrClose
		if c == '[' {
			k.state = sValueOrClose
		}
	case c == '"':
		k.open(false)
	case c == '-':
		k.emit(c)
		k.state = sMinus
	case c >= '0' && c <= '9':
		k.state = sMinus
		k.number(c)
		k.emit(c)
	case c == 't' || c == 'f' || c == 'n':
		k.lit = map[byte]string{'t': "true", 'f': "false", 'n': "null"}[c]
		k.litPos = 1
		k.state = sLiteral
		k.emit(c)
	default:
		return false
	}
	return true
}

// number moves through a number's states; false when c ends it (or is
// wrong in it: step tells which).
func (k *skeleton) number(c byte) bool {
	digit := c >= '0' && c <= '9'
	switch k.state {
	case sMinus:
		if c == '0' {
			k.state = sZero
		} else if digit {
			k.state = sInt
		} else {
			return false
		}
	case sZero, sInt:
		switch {
		case digit && k.state == sInt:
		case c == '.':
			k.state = sDot
		case c == 'e' || c == 'E':
			k.state = sExp
		default:
			return false
		}
	case sDot, sFrac:
		switch {
		case digit:
			k.state = sFrac
		case (c == 'e' || c == 'E') && k.state == sFrac:
			k.state = sExp
		default:
			return false
		}
	case sExp:
		if c == '+' || c == '-' {
			k.state = sExpSign
		} else if digit {
			k.state = sExpDigits
		} else {
			return false
		}
	case sExpSign, sExpDigits:
		if !digit {
			return false
		}
		k.state = sExpDigits
	}
	return true
}

func (k *skeleton) open(key bool) {
	k.state, k.isKey = sString, key
	k.str, k.strLen, k.long, k.safe, k.esc = k.str[:0], 0, false, 0, 0
}

func (k *skeleton) inString(c byte) bool {
	plain := k.esc == 0
	switch {
	case k.esc == 1:
		if !isEscape(c) {
			return false
		}
		k.esc = 0
		if c == 'u' {
			k.esc = 2
		}
	case k.esc > 1:
		if !isHex(c) {
			return false
		}
		if k.esc++; k.esc == 6 {
			k.esc = 0
		}
	case c == '"':
		k.close()
		return true
	case c < 0x20:
		return false
	case c == '\\':
		k.esc = 1
	}
	k.strLen++
	if k.long {
		return true
	}
	if len(k.str) <= keepPrefix && c&0xc0 != 0x80 && plain {
		k.safe = len(k.str)
	}
	k.str = append(k.str, c)
	if len(k.str) > longString {
		k.long, k.str = true, k.str[:k.safe]
	}
	return true
}

func (k *skeleton) close() {
	k.state = sAfter
	if k.isKey {
		k.state = sColon
		if k.long {
			k.giveUp(fmt.Sprintf("it has an object key longer than %d KiB", longString>>10))
			return
		}
		if k.overflow == "" {
			k.path[len(k.path)-1] = keyText(k.str)
		}
	} else if k.long && k.overflow == "" {
		k.cuts = append(k.cuts, append([]string(nil), k.path[:k.depth]...))
		k.cutLens = append(k.cutLens, k.strLen)
	}
	k.emit('"')
	k.emit(k.str...)
	k.emit('"')
	if k.long && !k.isKey && k.overflow == "" {
		k.syncs = append(k.syncs, [2]int64{int64(len(k.out)), k.off + 1})
	}
}

// lineOffset maps a byte offset in the skeleton to the line's.
func (k *skeleton) lineOffset(off int) int {
	o := int64(off)
	for i := len(k.syncs) - 1; i >= 0; i-- {
		if s := k.syncs[i]; s[0] <= o {
			return int(s[1] + o - s[0])
		}
	}
	return off
}

func keyText(raw []byte) string {
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) != nil {
		return string(raw)
	}
	return s
}

func isEscape(c byte) bool {
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u':
		return true
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
