package session

import (
	"errors"
	"io"
)

// Reader streams one session: Meta first, then entries in source order.
// Next returns io.EOF after the last entry.
type Reader interface {
	Meta() *Meta
	Next() (*Entry, error)
	Close() error
}

// Session is a whole session in memory, for code that needs random access
// (exporters, tests). Readers never build one themselves.
type Session struct {
	Meta    Meta
	Entries []*Entry
}

// ReadAll drains r into a Session and closes it.
func ReadAll(r Reader) (*Session, error) {
	defer r.Close()
	s := &Session{Meta: *r.Meta()}
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		if err != nil {
			return s, err
		}
		s.Entries = append(s.Entries, e)
	}
}

// SliceReader streams a Session held in memory.
type SliceReader struct {
	S *Session
	i int
}

func (r *SliceReader) Meta() *Meta { return &r.S.Meta }

func (r *SliceReader) Next() (*Entry, error) {
	if r.i >= len(r.S.Entries) {
		return nil, io.EOF
	}
	r.i++
	return r.S.Entries[r.i-1], nil
}

func (r *SliceReader) Close() error { return nil }

// Each calls f for every entry r has left, in order, and stops at the
// first error from r or f. It does not close r.
func Each(r Reader, f func(*Entry) error) error {
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := f(e); err != nil {
			return err
		}
	}
}
