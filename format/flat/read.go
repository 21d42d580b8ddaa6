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
	*format.Lines
	meta   *session.Meta
	peeked *jsonl.Line // the line after the header when it was not a branch
}

// start reads the header and branch lines.
func start(lines *format.Lines) (*reader, error) {
	rd := &reader{Lines: lines}
	name := rd.Name
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
	l, err := r.NextNonBlank()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			err = fmt.Errorf("read %s: %w", r.Name, err)
		}
		return l, err
	}
	if !gjson.ValidBytes(l.Bytes) {
		return l, fmt.Errorf("%s:%d: invalid JSON", r.Name, l.N)
	}
	if r.Fed == nil {
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
		return nil, fmt.Errorf("%s:%d: %w", r.Name, l.N, err)
	}
	return e, nil
}

// Open streams the session file at ref.Path into the model.
func (f *Format) Open(ref format.Ref) (session.Reader, error) {
	return format.OpenLines(ref, start)
}

var _ format.Teed = (*Format)(nil)

// OpenTeed streams the session in ref's file from the lines its
// validator reads (format.Teed).
func (f *Format) OpenTeed(ref format.Ref, lines *jsonl.Feed) (session.Reader, error) {
	return format.TeeLines(ref, lines, start)
}

// OpenReader streams a session from r; name is used in errors.
func (f *Format) OpenReader(name string, r io.Reader) (session.Reader, error) {
	return format.ReadLines(name, r, start)
}
