package copilot

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// reader streams an events.jsonl: the session.start event becomes the
// Meta, every later event one Entry.
type reader struct {
	name   string
	lines  jsonl.Source
	closer io.Closer
	meta   *session.Meta
	dec    *decoder
}

func newReader(name string, r io.Reader, c io.Closer) (*reader, error) {
	rd := &reader{name: name, lines: jsonl.NewHeldReader(r), closer: c}
	first, err := rd.nextLine()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file, not a Copilot CLI session", name)
	}
	if err != nil {
		return nil, err
	}
	if rd.meta, err = decodeStart(first.Bytes, first.N); err != nil {
		return nil, fmt.Errorf("%s:%d: not a Copilot CLI session: %w", name, first.N, err)
	}
	rd.dec = newDecoder()
	return rd, nil
}

// nextLine returns the next non-blank line that is valid JSON; anything
// else is an error naming the line.
func (r *reader) nextLine() (jsonl.Line, error) {
	l, err := r.lines.NextNonBlank()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			err = fmt.Errorf("read %s: %w", r.name, err)
		}
		return l, err
	}
	if !gjson.ValidBytes(l.Bytes) {
		return l, fmt.Errorf("%s:%d: invalid JSON", r.name, l.N)
	}
	l.Bytes = bytes.Clone(l.Bytes) // the jsonl buffer is reused by the next call
	return l, nil
}

func (r *reader) Meta() *session.Meta { return r.meta }

func (r *reader) Next() (*session.Entry, error) {
	l, err := r.nextLine()
	if err != nil {
		return nil, err
	}
	e, err := r.dec.entry(l.Bytes, l.N)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", r.name, l.N, err)
	}
	return e, nil
}

func (r *reader) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// Open streams the session in ref into the model: ref.Path is an
// events.jsonl or flat <id>.jsonl file (Sessions resolves a session
// folder to its events.jsonl).
func (f Format) Open(ref format.Ref) (session.Reader, error) {
	return format.OpenFile(ref, func(name string, r io.Reader, c io.Closer) (session.Reader, error) {
		rd, err := newReader(name, r, c)
		if err == nil {
			applyWorkspace(rd.meta, readWorkspace(name))
		}
		return rd, err
	})
}

// OpenReader streams a session from r; name is used in errors.
func (f Format) OpenReader(name string, r io.Reader) (session.Reader, error) {
	return newReader(name, r, nil)
}
