package format

import (
	"io"

	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/session"
)

// Lines is where a JSON Lines layout's reader takes its lines from: a file
// or a stream, read by a jsonl.Reader, or the lines its validator reads of
// the same file (a jsonl.Feed, Teed). Every such reader starts the same way
// (OpenLines, TeeLines, ReadLines) and differs only in the start function
// that reads its header; it embeds the Lines it is given.
type Lines struct {
	Name   string        // the file's path or the stream's name, for errors
	Reader *jsonl.Reader // nil when Fed
	// Fed is set when the lines come from the validator: they are copies
	// already, where a Reader's are valid until its next read.
	Fed    *jsonl.Feed
	closer io.Closer
}

// NextNonBlank returns the next line that is not blank.
func (l *Lines) NextNonBlank() (jsonl.Line, error) {
	if l.Fed != nil {
		return l.Fed.NextNonBlank()
	}
	return l.Reader.NextNonBlank()
}

// Close stops the feed, or closes the file the lines are read from.
func (l *Lines) Close() error {
	if l.Fed != nil {
		l.Fed.Stop()
	}
	if l.closer != nil {
		return l.closer.Close()
	}
	return nil
}

// OpenLines is Open for a JSON Lines layout: start reads the header of
// ref's file (OpenFile closes it if start fails).
func OpenLines[R session.Reader](ref Ref, start func(*Lines) (R, error)) (session.Reader, error) {
	return OpenFile(ref, func(name string, r io.Reader, c io.Closer) (session.Reader, error) {
		return started(start(&Lines{Name: name, Reader: jsonl.NewHeldReader(r), closer: c}))
	})
}

// TeeLines is OpenTeed for a JSON Lines layout: the lines come from the
// validator reading ref's file, which is told to stop if start fails.
func TeeLines[R session.Reader](ref Ref, feed *jsonl.Feed, start func(*Lines) (R, error)) (session.Reader, error) {
	r, err := started(start(&Lines{Name: ref.Path, Fed: feed}))
	return r, feed.StopOn(err)
}

// ReadLines is OpenReader for a JSON Lines layout: a stream named name.
func ReadLines[R session.Reader](name string, r io.Reader, start func(*Lines) (R, error)) (session.Reader, error) {
	return started(start(&Lines{Name: name, Reader: jsonl.NewHeldReader(r)}))
}

// started makes a failed start a nil reader: a nil *reader in the
// interface would not compare equal to nil.
func started[R session.Reader](r R, err error) (session.Reader, error) {
	if err != nil {
		return nil, err
	}
	return r, nil
}
