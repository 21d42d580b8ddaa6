package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/session"
)

// reader streams a dump back into the model. It is strict: the dump is
// sesstool's own encoding, so an unknown member or a line of the wrong shape
// is an error naming the line, not something to carry along.
type reader struct {
	*format.Lines
	meta *session.Meta
}

// start reads the meta line.
func start(lines *format.Lines) (*reader, error) {
	rd := &reader{Lines: lines}
	name := rd.Name
	l, err := rd.nextLine()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file, not a model dump", name)
	}
	if err != nil {
		return nil, err
	}
	var ml metaLine
	if err := strict(l.Bytes, &ml); err != nil {
		return nil, fmt.Errorf("%s:%d: meta line: %w", name, l.N, err)
	}
	if ml.Meta == nil {
		return nil, fmt.Errorf("%s:%d: not a model dump: the first line has no \"meta\"", name, l.N)
	}
	if ml.Model != Version {
		return nil, fmt.Errorf("%s:%d: model dump version %d is not one sesstool reads (%d)", name, l.N, ml.Model, Version)
	}
	if rd.meta, err = decodeMeta(ml.Meta); err != nil {
		return nil, fmt.Errorf("%s:%d: meta: %w", name, l.N, err)
	}
	return rd, nil
}

// nextLine returns the next non-blank line.
func (r *reader) nextLine() (jsonl.Line, error) {
	l, err := r.NextNonBlank()
	if err != nil && !errors.Is(err, io.EOF) {
		err = fmt.Errorf("read %s: %w", r.Name, err)
	}
	return l, err
}

func (r *reader) Meta() *session.Meta { return r.meta }

func (r *reader) Next() (*session.Entry, error) {
	l, err := r.nextLine()
	if err != nil {
		return nil, err
	}
	var j entryJSON
	if err := strict(l.Bytes, &j); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", r.Name, l.N, err)
	}
	e, err := decodeEntry(&j)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", r.Name, l.N, err)
	}
	e.Line = l.N
	return e, nil
}

// strict decodes one line, refusing unknown members and trailing data.
func strict(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

// Open streams the dump at ref.Path back into the model.
func (Format) Open(ref format.Ref) (session.Reader, error) {
	return format.OpenLines(ref, start)
}

var _ format.Teed = Format{}

// OpenTeed streams the dump in ref's file from the lines its validator
// reads (format.Teed).
func (Format) OpenTeed(ref format.Ref, lines *jsonl.Feed) (session.Reader, error) {
	return format.TeeLines(ref, lines, start)
}

// OpenReader streams a dump from r; name is used in errors.
func (Format) OpenReader(name string, r io.Reader) (session.Reader, error) {
	return format.ReadLines(name, r, start)
}
