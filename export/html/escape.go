package html

import (
	"html"
	"math/bits"
	"unicode/utf8"

	"github.com/sesstool/sesstool/jsonx"
)

// esc escapes every string that comes from a session: sessions carry hostile
// text (tool output, web pages), and the page must show it, never run it.
func esc(s string) string { return html.EscapeString(s) }

// buf is an append buffer for page fragments. Unlike strings.Builder it
// can be reset and reused, so a worker renders entry after entry into the
// same memory. A buf with json set holds the fragment as the text of a
// JSON string (what jsonx.AppendString puts between the quotes): the page's
// data is a JSON string of each entry's HTML, and escaping it as it is
// written, the session's text in the same pass as its HTML escaping
// (text), saves a second pass over the whole page and a copy of it.
// Nothing writes part of a character, so the pieces escaped one by one are
// the whole escaped at once (jsonx.AppendEscaped).
type buf struct {
	b    []byte
	json bool
	args *argMemo // the entry's calls' arguments, decoded once (nil: decoded where needed)
}

func (w *buf) Write(p []byte) (int, error) {
	if w.json {
		w.b = jsonx.AppendEscaped(w.b, p)
	} else {
		w.b = append(w.b, p...)
	}
	return len(p), nil
}

func (w *buf) WriteString(s string) (int, error) {
	if w.json {
		w.b = jsonx.AppendEscaped(w.b, s)
	} else {
		w.b = append(w.b, s...)
	}
	return len(s), nil
}

func (w *buf) WriteByte(c byte) error {
	if w.json && !jsonPlain[c] {
		w.b = jsonx.AppendEscaped(w.b, []byte{c})
	} else {
		w.b = append(w.b, c)
	}
	return nil
}

func (w *buf) String() string { return string(w.b) }

// WriteRune, Available, Buffered and Flush make buf a goldmark
// util.BufWriter, so that goldmark renders straight into it instead of
// through a bufio.Writer of its own for every message.
func (w *buf) WriteRune(r rune) (int, error) {
	n := len(w.b)
	if w.json {
		var c [utf8.UTFMax]byte
		w.b = jsonx.AppendEscaped(w.b, utf8.AppendRune(c[:0], r))
	} else {
		w.b = utf8.AppendRune(w.b, r)
	}
	return len(w.b) - n, nil
}
func (w *buf) Available() int { return cap(w.b) - len(w.b) }
func (w *buf) Buffered() int  { return len(w.b) }
func (w *buf) Flush() error   { return nil }

// htmlEscapes marks the bytes html.EscapeString replaces.
var htmlEscapes = [256]bool{'<': true, '>': true, '&': true, '\'': true, '"': true}

// jsonPlain marks the bytes that stand for themselves in a JSON string
// (ASCII but control characters, the quote and the backslash).
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// textPlain marks the bytes text copies as they are, in either form.
var textPlain = func() (t [256]bool) {
	for c := range t {
		t[c] = jsonPlain[c] && !htmlEscapes[c]
	}
	return t
}()

// text writes s escaped exactly as html.EscapeString would (the same five
// entities), without first making an escaped copy: tool output is most of
// a session. With json set, the same pass escapes it for JSON too: each
// byte that is not plain is replaced from a table (an entity, or JSON's
// escape of a control character or backslash), and a byte beyond ASCII
// starts a character that is kept, or U+FFFD where it is not UTF-8, as
// jsonx.AppendEscaped does. (Handing JSON's runs to AppendEscaped scanned
// them twice, once a byte at a time for the next entity.)
func (w *buf) text(s string) {
	repl := &htmlRepl
	if w.json {
		repl = &jsonHTMLRepl
	}
	b := w.b
	last := 0
	for i := 0; i < len(s); {
		// eight plain bytes at a time: most of a session's text
		// (plainText8, written out: the call costs the inliner too much);
		// when one is not plain, straight to it: the lowest byte the test
		// marks is one (a borrow only marks bytes above a match)
		for i+8 <= len(s) {
			const ones, highs = 0x0101010101010101, 0x8080808080808080
			w := load8(s, i)
			q, bs, lt := w^(ones*'"'), w^(ones*'\\'), w^(ones*'<')
			gt, am, ap := w^(ones*'>'), w^(ones*'&'), w^(ones*'\'')
			if m := ((q-ones)&^q | (bs-ones)&^bs | (lt-ones)&^lt | (gt-ones)&^gt | (am-ones)&^am | (ap-ones)&^ap | (w-ones*0x20)&^w | w) & highs; m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			if !w.json {
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[last:i]...)
				b = append(b, "\ufffd"...)
				i++
				last = i
				continue
			}
			i += size
			continue
		}
		r := repl[c]
		if r == "" {
			i++
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, r...)
		i++
		last = i
	}
	w.b = append(b, s[last:]...)
}

// htmlRepl and jsonHTMLRepl are text's replacements of the ASCII bytes ("":
// the byte stands for itself): html.EscapeString's entities, and with them
// JSON's escapes.
var htmlRepl, jsonHTMLRepl = func() (h, j [utf8.RuneSelf]string) {
	for c := range utf8.RuneSelf {
		if !jsonPlain[c] {
			j[c] = string(jsonx.AppendEscaped(nil, []byte{byte(c)}))
		}
	}
	for c, e := range map[byte]string{'<': "&lt;", '>': "&gt;", '&': "&amp;", '\'': "&#39;", '"': "&#34;"} {
		h[c], j[c] = e, e
	}
	return h, j
}()

// load8 reads s[i:i+8] as one little-endian word.
func load8(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// plainText8 reports whether each of the eight bytes in w is textPlain:
// no control character, no byte beyond ASCII, none of " \ < > & '. text
// has it written out in its loop: a call for every eight bytes was half
// of text's time.
func plainText8(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, bs, lt := w^(ones*'"'), w^(ones*'\\'), w^(ones*'<')
	gt, am, ap := w^(ones*'>'), w^(ones*'&'), w^(ones*'\'')
	return ((q-ones)&^q|(bs-ones)&^bs|(lt-ones)&^lt|(gt-ones)&^gt|(am-ones)&^am|(ap-ones)&^ap|(w-ones*0x20)&^w|w)&highs == 0
}
