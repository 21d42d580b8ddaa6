package opencode

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/sesstool/sesstool/jsonx"
)

// piece is one part of an export document as docScanner hands it out: a
// top-level member's value, or one element of the messages array.
type piece struct {
	key   string // the top-level member it is (or is in: "messages")
	index int    // the element's index in messages; -1 for a member's value
	raw   []byte // its bytes as written (valid JSON); reused by the next call
	line  int    // the 1-based line its first byte is on
	col   int    // and its column there
}

// repeat is a top-level key met again, at line:col (its opening quote).
type repeat struct {
	key       string
	line, col int
}

// docSyntax is a document that is not JSON: the first problem, where
// jsonx.SyntaxError over the whole text would put it.
type docSyntax struct {
	line, col int
	msg       string
}

func (e *docSyntax) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.line, e.col, e.msg)
}

// docScanner splits an export document into its top-level members and the
// elements of its messages array, one at a time, so that no reader holds
// the whole document: what it keeps is one piece. Each piece is checked as
// JSON; a problem is reported with the line, column and words that
// jsonx.SyntaxError gives for the whole text (the error is found in a copy
// of the piece behind the few bytes of context that reach the same state).
type docScanner struct {
	r         *bufio.Reader
	line      int // line of the next byte
	col       int // 1-based column (in characters) of the next byte
	prevLine  int // where the last character read started
	prevCol   int
	started   bool
	inMsgs    bool // between messages' [ and ]
	msgsArray bool // messages is an array
	member    bool // a member's value was read: , or } comes next
	index     int
	done      bool
	seen      map[string]bool
	repeats   []repeat // top-level keys written a second time
	buf       []byte
	err       error
}

func newDocScanner(r io.Reader) *docScanner {
	return &docScanner{r: bufio.NewReaderSize(r, 64<<10), line: 1, col: 1, seen: map[string]bool{}}
}

// The contexts a piece or a structural character is checked in: bytes of
// valid JSON that leave encoding/json's scanner where the document's does.
const (
	ctxStart      = ""
	ctxObjOpen    = `{`
	ctxObjNext    = `{"a":0,`
	ctxAfterKey   = `{"a"`
	ctxValue      = `{"a":`
	ctxAfterValue = `{"a":0`
	ctxArrOpen    = `{"a":[`
	ctxArrNext    = `{"a":[0,`
	ctxArrAfter   = `{"a":[0`
	ctxEnd        = `{}`
)

// next returns the next piece, io.EOF after the document, or a *docSyntax
// (or the reader's error).
func (s *docScanner) next() (piece, error) {
	if s.err != nil {
		return piece{}, s.err
	}
	p, err := s.step()
	if err != nil {
		s.err = err
	}
	return p, err
}

func (s *docScanner) step() (piece, error) {
	if !s.started {
		s.started = true
		if head, _ := s.r.Peek(len(bomBytes)); bytes.Equal(head, bomBytes) {
			return piece{}, errBOM
		}
		c, err := s.nonSpace(ctxStart)
		if err != nil {
			return piece{}, err
		}
		if c != '{' {
			return piece{}, s.notObject()
		}
		s.take()
		c, err = s.nonSpace(ctxObjOpen)
		if err != nil {
			return piece{}, err
		}
		if c == '}' {
			s.take()
			return piece{}, s.end()
		}
		return s.memberAt(ctxObjOpen)
	}
	if s.inMsgs {
		return s.element()
	}
	return s.afterMember()
}

// afterMember reads the , or } after a member's value and the next member.
func (s *docScanner) afterMember() (piece, error) {
	c, err := s.nonSpace(ctxAfterValue)
	if err != nil {
		return piece{}, err
	}
	switch c {
	case '}':
		s.take()
		return piece{}, s.end()
	case ',':
		s.take()
		return s.memberAt(ctxObjNext)
	}
	return piece{}, s.structural(ctxAfterValue)
}

// memberAt reads a key, its colon and its value (or, for the first
// messages member, the array's opening bracket and its first element).
func (s *docScanner) memberAt(ctx string) (piece, error) {
	c, err := s.nonSpace(ctx)
	if err != nil {
		return piece{}, err
	}
	if c != '"' {
		return piece{}, s.structural(ctx)
	}
	raw, kline, kcol, err := s.captureChecked(ctx)
	if err != nil {
		return piece{}, err
	}
	key, _ := jsonx.Unquote(raw)
	if c, err = s.nonSpace(ctxAfterKey); err != nil {
		return piece{}, err
	}
	if c != ':' {
		return piece{}, s.structural(ctxAfterKey)
	}
	s.take()
	if c, err = s.nonSpace(ctxValue); err != nil {
		return piece{}, err
	}
	// gjson, which read the whole document, takes a key's first value: so
	// does this; a later one is only checked as JSON, and validate reports
	// it (JavaScript would take it instead).
	first := !s.seen[key]
	s.seen[key] = true
	if !first {
		s.repeats = append(s.repeats, repeat{key, kline, kcol})
	}
	if key == "messages" && c == '[' && first {
		s.take()
		s.inMsgs, s.msgsArray, s.index = true, true, 0
		return s.element()
	}
	raw, line, col, err := s.captureChecked(ctxValue)
	if err != nil {
		return piece{}, err
	}
	if !first {
		return s.afterMember()
	}
	return piece{key: key, index: -1, raw: raw, line: line, col: col}, nil
}

// element reads the next element of messages, or its closing bracket and
// what follows it.
func (s *docScanner) element() (piece, error) {
	ctx, after := ctxArrOpen, ctxArrOpen
	if s.index > 0 {
		ctx, after = ctxArrNext, ctxArrAfter
	}
	c, err := s.nonSpace(after)
	if err != nil {
		return piece{}, err
	}
	if s.index > 0 {
		switch c {
		case ']':
			s.take()
			s.inMsgs = false
			return s.afterMember()
		case ',':
			s.take()
		default:
			return piece{}, s.structural(ctxArrAfter)
		}
		if c, err = s.nonSpace(ctx); err != nil {
			return piece{}, err
		}
	} else if c == ']' {
		s.take()
		s.inMsgs = false
		return s.afterMember()
	}
	raw, line, col, err := s.captureChecked(ctx)
	if err != nil {
		return piece{}, err
	}
	s.index++
	return piece{key: "messages", index: s.index - 1, raw: raw, line: line, col: col}, nil
}

// end checks that nothing but space follows the document.
func (s *docScanner) end() error {
	s.done = true
	_, err := s.nonSpace(ctxEnd)
	if errors.Is(err, io.EOF) {
		return io.EOF
	}
	if err != nil {
		return err
	}
	return s.structural(ctxEnd)
}

var (
	bomBytes     = []byte("\xef\xbb\xbf")
	errBOM       = errors.New("starts with a byte order mark")
	errNotObject = errors.New("not a JSON object")
)

// notObject reads a document that does not start with {: JSON that is not
// an object (errNotObject), or the syntax error it holds.
func (s *docScanner) notObject() error {
	if _, _, _, err := s.captureChecked(ctxStart); err != nil {
		return err
	}
	if err := s.end(); !errors.Is(err, io.EOF) {
		return err
	}
	return errNotObject
}

// nonSpace skips white space and peeks at the next byte. At the end of the
// input it returns the syntax error the document's state makes of it (or
// io.EOF after the document).
func (s *docScanner) nonSpace(ctx string) (byte, error) {
	for {
		b, err := s.r.ReadByte()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return 0, err
			}
			if s.done {
				return 0, io.EOF
			}
			return 0, s.atEOF(ctx)
		}
		switch b {
		case ' ', '\t', '\r', '\n':
			s.advance(b)
			continue
		}
		_ = s.r.UnreadByte()
		return b, nil
	}
}

// take consumes one byte nonSpace peeked at (an ASCII one).
func (s *docScanner) take() {
	b, _ := s.r.ReadByte()
	s.advance(b)
}

func (s *docScanner) advance(b byte) {
	if b >= 0x80 && b < 0xc0 {
		return // a continuation byte: the character started before
	}
	s.prevLine, s.prevCol = s.line, s.col
	if b == '\n' {
		s.line, s.col = s.line+1, 1
	} else {
		s.col++
	}
}

// captureChecked captures the value that starts here and checks it as
// JSON, returning it and the line and column it starts at.
func (s *docScanner) captureChecked(ctx string) (raw []byte, line, col int, err error) {
	line, col = s.line, s.col
	if raw, err = s.capture(ctx); err != nil {
		return nil, 0, 0, err
	}
	if err := s.check(ctx, raw, line, col); err != nil {
		return nil, 0, 0, err
	}
	return raw, line, col, nil
}

// capture reads one value, by its brackets and strings, into s.buf. A value
// that is not JSON ends where its brackets seem to; check finds why. It
// goes through the reader's buffer a chunk at a time.
func (s *docScanner) capture(ctx string) ([]byte, error) {
	s.buf = s.buf[:0]
	depth, inStr, esc := 0, false, false
	var first byte
	for {
		if s.r.Buffered() == 0 {
			if _, err := s.r.Peek(1); err != nil {
				if errors.Is(err, io.EOF) {
					return s.buf, nil // check says what is missing
				}
				return nil, err
			}
		}
		chunk, _ := s.r.Peek(s.r.Buffered())
		for i, b := range chunk {
			if len(s.buf)+i == 0 {
				first = b
			} else if !inStr && depth == 0 && first != '"' && scalarEnd(b) {
				s.buf = append(s.buf, chunk[:i]...)
				_, _ = s.r.Discard(i)
				return s.buf, nil
			}
			s.advance(b)
			switch {
			case inStr:
				switch {
				case esc:
					esc = false
				case b == '\\':
					esc = true
				case b == '"':
					inStr = false
				}
			case b == '"':
				inStr = true
			case b == '{' || b == '[':
				depth++
			case b == '}' || b == ']':
				depth--
			}
			if !inStr && depth <= 0 && (b == '"' || b == '}' || b == ']') && (depth < 0 || first == '"' || first == '{' || first == '[') {
				s.buf = append(s.buf, chunk[:i+1]...)
				_, _ = s.r.Discard(i + 1)
				return s.buf, nil
			}
		}
		s.buf = append(s.buf, chunk...)
		_, _ = s.r.Discard(len(chunk))
	}
}

func scalarEnd(b byte) bool {
	switch b {
	case ',', '}', ']', ' ', '\t', '\r', '\n', '"', '{', '[', ':':
		return true
	}
	return false
}

// check reports raw, read at line:col in state ctx, as the first problem of
// the document when it is not JSON there; nil when it is.
func (s *docScanner) check(ctx string, raw []byte, line, col int) error {
	if jsonx.Valid(raw) && utf8.Valid(raw) {
		return nil
	}
	// The byte after raw decides some errors ("tru}" is a bad literal
	// there, not a short one).
	syn := append([]byte(ctx), raw...)
	if b, err := s.r.Peek(1); err == nil {
		syn = append(syn, b...)
	}
	return s.locate(syn, len(ctx), line, col)
}

// structural reports the byte nonSpace peeked at as the document's first
// problem, in state ctx.
func (s *docScanner) structural(ctx string) error {
	line, col := s.line, s.col
	syn := []byte(ctx)
	if b, _ := s.r.Peek(utf8.UTFMax); len(b) > 0 { // fewer at the end
		_, n := utf8.DecodeRune(b)
		syn = append(syn, b[:n]...)
	}
	return s.locate(syn, len(ctx), line, col)
}

// atEOF reports the end of the input in state ctx: encoding/json points at
// the last character.
func (s *docScanner) atEOF(ctx string) error {
	_, msg, _ := jsonx.SyntaxError([]byte(ctx))
	if s.line == 1 && s.col == 1 {
		return &docSyntax{line: 1, col: 1, msg: msg}
	}
	return &docSyntax{line: s.prevLine, col: s.prevCol, msg: msg}
}

// locate finds the problem in syn (ctx bytes, then the document's bytes
// from line:col on) and reports it at its place in the document; an
// invalid UTF-8 sequence later in the input comes first, as it does for
// jsonx.SyntaxError over the whole text.
func (s *docScanner) locate(syn []byte, ctxLen, line, col int) error {
	at, msg, bad := jsonx.SyntaxError(syn)
	if !bad {
		at, msg = utf8.RuneCount(syn)+1, "invalid JSON"
	}
	if msg != "invalid UTF-8" {
		if e := s.laterUTF8(); e != nil {
			return e
		}
	}
	own := syn[ctxLen:]
	k := max(at-1-utf8.RuneCount(syn[:ctxLen]), 0) // characters into own
	l, c := lineCol(own, k+1)
	if l == 1 {
		c = col + c - 1
	}
	return &docSyntax{line: line + l - 1, col: c, msg: msg}
}

// laterUTF8 reads the rest of the input for an invalid UTF-8 sequence.
func (s *docScanner) laterUTF8() error {
	var carry []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := s.r.Read(buf)
		chunk := append(carry, buf[:n]...)
		carry = nil
		for i := 0; i < len(chunk); {
			r, size := utf8.DecodeRune(chunk[i:])
			if r == utf8.RuneError && size == 1 {
				if err == nil && !utf8.FullRune(chunk[i:]) {
					carry = append(carry, chunk[i:]...)
					break
				}
				return &docSyntax{line: s.line, col: s.col, msg: "invalid UTF-8"}
			}
			for j := 0; j < size; j++ {
				s.advance(chunk[i+j])
			}
			i += size
		}
		if err != nil {
			return nil
		}
	}
}
