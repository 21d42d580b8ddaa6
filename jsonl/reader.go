// Package jsonl reads line-oriented files with lines of any length, counting
// lines and accepting LF and CRLF endings.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Reader yields lines one at a time. Memory is bounded by the longest line,
// never by the file.
type Reader struct {
	r    *bufio.Reader
	buf  []byte
	line int
}

// NewReader reads from r with a 1 MiB buffer; longer lines grow a private one.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 1<<20)}
}

// Line is one line of input.
type Line struct {
	Bytes      []byte // without the terminator; valid until the next call to Next
	N          int    // 1-based line number
	Terminated bool   // false for a last line with no newline (a torn write, or an editor's habit)
	CR         bool   // the line ended with CRLF
}

// Next returns the next line, or io.EOF.
func (r *Reader) Next() (Line, error) {
	b, err := r.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.buf = append(r.buf[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = r.r.ReadSlice('\n')
			r.buf = append(r.buf, b...)
		}
		b = r.buf
	}
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
