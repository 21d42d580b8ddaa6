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
