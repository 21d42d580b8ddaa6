package jsonl

import (
	"io"
	"sync"

	"github.com/sesstool/sesstool/exitcode"
)

// Feed hands the lines one reader of a file read to a second consumer of
// the same lines, so the file is read, split and copied once instead of
// twice: export html validates a session and renders it at the same time
// (the validator fills the feed, the session reader drains it). Its lines
// are what a held reader's NextNonBlank returns, each a copy the consumer
// may keep and must not change (the filler reads it too).
type Feed struct {
	ch       chan []Line
	end      chan struct{} // closed by End: nothing more will be sent
	endErr   error
	stop     chan struct{} // closed by Stop: the consumer wants nothing more
	endOnce  sync.Once
	stopOnce sync.Once
	cur      []Line
	last     error // what NextNonBlank returned at the end, returned again
}

// Source is where a session reader takes its lines from: a held Reader of
// the file, or a Feed its validator fills.
type Source interface {
	NextNonBlank() (Line, error)
}

// NewFeed returns a feed holding up to batches batches of lines in flight,
// which bounds how far the filler runs ahead of the consumer.
func NewFeed(batches int) *Feed {
	return &Feed{ch: make(chan []Line, batches), end: make(chan struct{}), stop: make(chan struct{})}
}

// Send hands over one batch of non-blank lines, in file order. It blocks
// while the feed is full and returns false once the consumer stopped or
// the feed ended: the filler then sends nothing more.
func (f *Feed) Send(lines []Line) bool {
	select {
	case <-f.stop:
		return false
	case <-f.end:
		return false
	default:
	}
	select {
	case f.ch <- lines:
		return true
	case <-f.stop:
		return false
	case <-f.end:
		return false
	}
}

// End says that nothing more will be sent: err is what the consumer gets
// after the lines already sent (nil: io.EOF). Only the first call counts,
// so a caller may end a feed again to make sure it is ended.
func (f *Feed) End(err error) {
	f.endOnce.Do(func() {
		f.endErr = err
		close(f.end)
	})
}

// EndTooLong ends the feed at line n, longer than MaxHeld, with the error
// a held reader gives for it.
func (f *Feed) EndTooLong(n int) { f.End(tooLong(n, MaxHeld)) }

// Stop tells the filler that the consumer reads no more lines.
func (f *Feed) Stop() { f.stopOnce.Do(func() { close(f.stop) }) }

// StopOn stops f when err, its reader's failure to start, is not nil, so
// that the validation filling it does not wait for that reader; it
// returns err.
func (f *Feed) StopOn(err error) error {
	if err != nil {
		f.Stop()
	}
	return err
}

// NextNonBlank returns the next line, or the error End was given (io.EOF
// when none), as a held Reader's NextNonBlank does.
func (f *Feed) NextNonBlank() (Line, error) {
	for len(f.cur) == 0 {
		if f.last != nil {
			return Line{}, f.last
		}
		select {
		case f.cur = <-f.ch:
			continue
		case <-f.end:
		}
		select { // lines sent before End come first
		case f.cur = <-f.ch:
			continue
		default:
		}
		f.last = f.endErr
		if f.last == nil {
			f.last = io.EOF
		}
	}
	l := f.cur[0]
	f.cur = f.cur[1:]
	return l, nil
}

// tooLong is a held reader's refusal of line n, longer than max.
func tooLong(n, max int) error {
	return &exitcode.Error{Code: exitcode.Invalid, Err: &TooLongError{Line: n, Max: max}}
}
