package flat

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

// reader streams a flat file: the header and a branch line on line 2 become
// the Meta; every later line becomes one Entry.
type reader struct {
	name   string
	lines  jsonl.Source
	fed    *jsonl.Feed // set when lines come from the validator (OpenTeed)
	closer io.Closer
	meta   *session.Meta
	peeked *jsonl.Line // the line after the header when it was not a branch
}

func newReader(name string, r io.Reader, c io.Closer) (*reader, error) {
	return start(&reader{name: name, lines: jsonl.NewHeldReader(r), closer: c})
}

// newFedReader is newReader for lines from the file's validator.
func newFedReader(name string, f *jsonl.Feed) (*reader, error) {
	rd, err := start(&reader{name: name, lines: f, fed: f})
	return rd, f.StopOn(err)
}

// start reads rd's header and branch lines.
func start(rd *reader) (*reader, error) {
	name := rd.name
	first, err := rd.nextLine()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file, not a flat session", name)
	}
	if err != nil {
		return nil, err
	}
	if gjson.GetBytes(first.Bytes, "type").String() != "session" {
		return nil, fmt.Errorf("%s:%d: not a flat session: the first line is not a session header", name, first.N)
	}
	if rd.meta, err = decodeHeader(first.Bytes); err != nil {
		return nil, fmt.Errorf("%s:%d: header: %w", name, first.N, err)
	}
	second, err := rd.nextLine()
	switch {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, err
	case gjson.GetBytes(second.Bytes, "type").String() == "branch" && second.N == first.N+1:
		if rd.meta.Parent, err = decodeBranch(second.Bytes); err != nil {
			return nil, fmt.Errorf("%s:%d: branch: %w", name, second.N, err)
		}
	default:
		rd.peeked = &second
	}
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
	if r.fed == nil {
		l.Bytes = bytes.Clone(l.Bytes) // the jsonl buffer is reused by the next call
	}
	return l, nil
}

func (r *reader) Meta() *session.Meta { return r.meta }

func (r *reader) Next() (*session.Entry, error) {
	var l jsonl.Line
	if r.peeked != nil {
		l, r.peeked = *r.peeked, nil
	} else {
		var err error
		if l, err = r.nextLine(); err != nil {
			return nil, err
		}
	}
	e, err := decodeEntry(l.Bytes, l.N)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", r.name, l.N, err)
	}
	return e, nil
}

func (r *reader) Close() error {
	if r.fed != nil {
		r.fed.Stop()
	}
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// Open streams the session file at ref.Path into the model.
func (f *Format) Open(ref format.Ref) (session.Reader, error) {
	return format.OpenFile(ref, func(name string, r io.Reader, c io.Closer) (session.Reader, error) {
		return newReader(name, r, c)
	})
}

var _ format.Teed = (*Format)(nil)

// OpenTeed streams the session in ref's file from the lines its
// validator reads (format.Teed).
func (f *Format) OpenTeed(ref format.Ref, lines *jsonl.Feed) (session.Reader, error) {
	return newFedReader(ref.Path, lines)
}

// OpenReader streams a session from r; name is used in errors.
func (f *Format) OpenReader(name string, r io.Reader) (session.Reader, error) {
	return newReader(name, r, nil)
}
