package html

import (
	"html"
	"unicode/utf8"
)

// esc escapes every string that comes from a session: sessions carry hostile
// text (tool output, web pages), and the page must show it, never run it.
func esc(s string) string { return html.EscapeString(s) }

// buf is an append buffer for page fragments. Unlike strings.Builder it
// can be reset and reused, so a worker renders entry after entry into the
// same memory.
type buf struct{ b []byte }

func (w *buf) Write(p []byte) (int, error)       { w.b = append(w.b, p...); return len(p), nil }
func (w *buf) WriteString(s string) (int, error) { w.b = append(w.b, s...); return len(s), nil }
func (w *buf) WriteByte(c byte) error            { w.b = append(w.b, c); return nil }
func (w *buf) String() string                    { return string(w.b) }

// WriteRune, Available, Buffered and Flush make buf a goldmark
// util.BufWriter, so that goldmark renders straight into it instead of
// through a bufio.Writer of its own for every message.
func (w *buf) WriteRune(r rune) (int, error) {
	n := len(w.b)
	w.b = utf8.AppendRune(w.b, r)
	return len(w.b) - n, nil
}
func (w *buf) Available() int { return cap(w.b) - len(w.b) }
func (w *buf) Buffered() int  { return len(w.b) }
func (w *buf) Flush() error   { return nil }

// htmlEscapes marks the bytes html.EscapeString replaces.
var htmlEscapes = [256]bool{'<': true, '>': true, '&': true, '\'': true, '"': true}

// text writes s escaped exactly as html.EscapeString would (the same five
// entities), without first making an escaped copy: tool output is most of
// a session.
func (w *buf) text(s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		if !htmlEscapes[s[i]] {
			continue
		}
		w.b = append(w.b, s[last:i]...)
		switch s[i] {
		case '<':
			w.b = append(w.b, "&lt;"...)
		case '>':
			w.b = append(w.b, "&gt;"...)
		case '&':
			w.b = append(w.b, "&amp;"...)
		case '\'':
			w.b = append(w.b, "&#39;"...)
		case '"':
			w.b = append(w.b, "&#34;"...)
		}
		last = i + 1
	}
	w.b = append(w.b, s[last:]...)
}

const hexDigits = "0123456789abcdef"

// jsonSafe marks the ASCII bytes that stand for themselves in a JSON string.
var jsonSafe = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSON appends s as a JSON string exactly as jsonx.AppendString does
// (JSON.stringify's spelling; invalid UTF-8 becomes U+FFFD), for bytes as
// well as strings: an entry's HTML is rendered into a reused byte buffer.
func appendJSON[T string | []byte](dst []byte, s T) []byte {
	dst = append(dst, '"')
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonSafe[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[last:i]...)
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
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			last = i
			continue
		}
		// at most 4 bytes: converted on the stack, no allocation
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[last:i]...)
			dst = append(dst, "\ufffd"...)
			i++
			last = i
			continue
		}
		i += size
	}
	dst = append(dst, s[last:]...)
	return append(dst, '"')
}
