package qwen

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

// reader streams a session file: the first line gives the Meta (every
// line repeats the session's id, cwd and version), and every line is one
// Entry.
type reader struct {
	name   string
	lines  jsonl.Source
	closer io.Closer
	meta   *session.Meta
	peeked *jsonl.Line      // the first line, read for the Meta
	queue  []*session.Entry // the rest of a line read as several entries
}

func newReader(name string, r io.Reader, c io.Closer) (*reader, error) {
	rd := &reader{name: name, lines: jsonl.NewHeldReader(r), closer: c}
	first, err := rd.nextLine()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file, not a Qwen Code session", name)
	}
	if err != nil {
		return nil, err
	}
	rd.meta = decodeMeta(first.Bytes)
	rd.peeked = &first
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
	l.Bytes = bytes.Clone(format.TrimBOM(l.Bytes)) // the jsonl buffer is reused by the next call
	return l, nil
}

func (r *reader) Meta() *session.Meta { return r.meta }

func (r *reader) Next() (*session.Entry, error) {
	if len(r.queue) > 0 {
		e := r.queue[0]
		r.queue = r.queue[1:]
		return e, nil
	}
	var l jsonl.Line
	if r.peeked != nil {
		l, r.peeked = *r.peeked, nil
	} else {
		var err error
		if l, err = r.nextLine(); err != nil {
			return nil, err
		}
	}
	es, err := decodeLine(l.Bytes, l.N, r.meta)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", r.name, l.N, err)
	}
	r.queue = es[1:]
	return es[0], nil
}

func (r *reader) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// Open streams the session file at ref.Path into the model.
func (f Format) Open(ref format.Ref) (session.Reader, error) {
	return format.OpenFile(ref, func(name string, r io.Reader, c io.Closer) (session.Reader, error) {
		return newReader(name, r, c)
	})
}

// OpenReader streams a session from r; name is used in errors.
func (f Format) OpenReader(name string, r io.Reader) (session.Reader, error) {
	return newReader(name, r, nil)
}
