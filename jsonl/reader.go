// Package jsonl reads line-oriented files with lines of any length, counting
// lines and accepting LF and CRLF endings.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Reader yields lines one at a time. Memory is bounded by the longest line,
// never by the file.
type Reader struct {
	r       *bufio.Reader
	buf     []byte
	line    int
	long    []byte // the part of a long line NextLimit read, for Rest
	longErr error  // and the error of its last read
	max     int    // NewHeldReader: the longest line Next returns
	tooLong error  // and the error it returned for a longer one
}

// MaxHeld is the longest line a reader that decodes a line into the session
// model holds (NewHeldReader). Decoding copies a line several times (the
// line, its clone, its strings, what a writer or the page makes of them), so
// a longer one would take the command past 1 GiB; validate scans such a line
// as a stream instead, and a tree session's copy to tree copies it in pieces.
const MaxHeld = 64 << 20

// TooLongError is Next's refusal of a line longer than a held reader's
// limit. It is invalid input (exit 1): the file is not broken, but the
// command cannot read it without holding the line.
type TooLongError struct {
	Line int // 1-based
	Max  int
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("line %d: longer than %d MiB, the longest line sesstool reads into a session; validate checks it, and convert --to tree copies it from a tree session", e.Line, e.Max>>20)
}

// NewHeldReader is NewReader for a reader that holds each line it returns:
// Next and NextNonBlank refuse a line longer than MaxHeld with a
// *TooLongError (wrapped as exit 1) without gathering it.
func NewHeldReader(r io.Reader) *Reader {
	lr := NewReader(r)
	lr.max = MaxHeld
	return lr
}

// NewReader reads from r with a 256 KiB buffer; longer lines grow a private
// one. The buffer is live heap for the whole run, which a streaming
// command's memory limit may double (main_runtime.go); 1 MiB read no
// faster.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 256<<10)}
}

// Line is one line of input.
type Line struct {
	Bytes      []byte // without the terminator; valid until the next call to Next
	N          int    // 1-based line number
	Terminated bool   // false for a last line with no newline (a torn write, or an editor's habit)
	CR         bool   // the line ended with CRLF
	// Long is set by NextLimit for a line longer than its limit: Bytes is
	// then empty and Rest hands the line over in pieces.
	Long bool
}

// Next returns the next line, or io.EOF.
func (r *Reader) Next() (Line, error) {
	if r.max > 0 {
		return r.nextHeld()
	}
	b, err := r.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.buf = append(r.buf[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = r.r.ReadSlice('\n')
			r.buf = append(r.buf, b...)
		}
		b = r.buf
	}
	return r.finish(b, err)
}

func (r *Reader) finish(b []byte, err error) (Line, error) {
	if err != nil && !errors.Is(err, io.EOF) {
		return Line{}, err
	}
	if len(b) == 0 {
		return Line{}, io.EOF
	}
	r.line++
	l := Line{Bytes: b, N: r.line}
	if bytes.HasSuffix(b, []byte{'\n'}) {
		l.Terminated = true
		l.Bytes = b[:len(b)-1]
		if bytes.HasSuffix(l.Bytes, []byte{'\r'}) {
			l.CR = true
			l.Bytes = l.Bytes[:len(l.Bytes)-1]
		}
	}
	return l, nil
}

// nextHeld is Next for a held reader: the line is gathered only up to max,
// and a longer one ends the reading (the rest of it is never read).
func (r *Reader) nextHeld() (Line, error) {
	if r.tooLong != nil {
		return Line{}, r.tooLong
	}
	l, err := r.NextLimit(r.max)
	if err != nil || !l.Long {
		return l, err
	}
	r.long, r.longErr = nil, nil
	r.tooLong = tooLong(l.N, r.max)
	return Line{}, r.tooLong
}

// NextNonBlank returns the next line that holds more than white space, or
// io.EOF: the agents' own readers pass over blank lines, and so do ours.
// Line numbers still count the blank lines.
func (r *Reader) NextNonBlank() (Line, error) {
	for {
		l, err := r.Next()
		if err != nil || len(bytes.TrimSpace(l.Bytes)) > 0 {
			return l, err
		}
	}
}

// NextLimit is Next for lines of at most max bytes. A longer line is not
// gathered into one buffer: it comes back with Long set, and Rest must then
// hand it over in pieces before the next call, so memory stays near max
// whatever the line's length.
func (r *Reader) NextLimit(max int) (Line, error) {
	b, err := r.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.buf = append(r.buf[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) && len(r.buf) <= max {
			b, err = r.r.ReadSlice('\n')
			r.buf = append(r.buf, b...)
		}
		b = r.buf
		if len(b) > max {
			r.buf = nil // a long line's buffer is not kept for the next
		}
	}
	if len(b) > max && (err == nil || errors.Is(err, bufio.ErrBufferFull) || errors.Is(err, io.EOF)) {
		r.line++
		r.long, r.longErr = b, err
		return Line{N: r.line, Long: true}, nil
	}
	return r.finish(b, err)
}

// Rest passes the bytes of the long line NextLimit returned to f, in order
// and without its terminator (LF or CRLF); a piece is valid only during the
// call. terminated is false for a last line with no newline.
func (r *Reader) Rest(f func([]byte)) (terminated bool, err error) {
	b, err := r.long, r.longErr
	r.long, r.longErr = nil, nil
	cr := false // a CR held back: it belongs to the terminator if an LF follows
	emit := func(p []byte) {
		if cr {
			f([]byte{'\r'})
			cr = false
		}
		if n := len(p); n > 0 && p[n-1] == '\r' {
			cr, p = true, p[:n-1]
		}
		if len(p) > 0 {
			f(p)
		}
	}
	for {
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return false, err
		}
		if n := len(b); n > 0 && b[n-1] == '\n' {
			if n > 1 {
				emit(b[:n-1])
			}
			return true, nil // a CR still held was the terminator's
		}
		emit(b)
		if errors.Is(err, io.EOF) {
			if cr {
				f([]byte{'\r'})
			}
			return false, nil
		}
		b, err = r.r.ReadSlice('\n')
	}
}
