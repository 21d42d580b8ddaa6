package tree

import (
	"io"
	"runtime"
	"sync"

	"github.com/sesstool/sesstool/session"
)

// ReadAhead makes Next decode lines on every core, ahead of the caller, in
// order, with the same entries and errors as reading one line at a time.
// It is for a caller that reads the whole session anyway (export): decoding
// is most of reading, and it took one core while the other waited. The
// lines in flight are bounded (aheadBatch bytes per batch, a few batches per
// core). Call it before the first Next; Close stops the goroutines.
func (r *reader) ReadAhead() {
	if r.ahead == nil {
		r.ahead = startAhead(r)
	}
}

const (
	aheadBatch = 256 << 10 // bytes of lines decoded together
	aheadLines = 512       // lines at most in a batch
)

type decoded struct {
	e   *session.Entry
	err error
	end bool // err ends the stream: a read error or io.EOF
}

type readAhead struct {
	queue   <-chan chan []decoded
	cur     []decoded
	done    chan struct{}
	once    sync.Once
	lastErr error // a read error or io.EOF: the end of the stream
}

func (a *readAhead) stop() { a.once.Do(func() { close(a.done) }) }

// next returns the next line's result, in file order.
func (a *readAhead) next() (*session.Entry, error) {
	for len(a.cur) == 0 {
		if a.lastErr != nil {
			return nil, a.lastErr
		}
		ch, ok := <-a.queue
		if !ok {
			a.lastErr = io.EOF
			continue
		}
		a.cur = <-ch
	}
	d := a.cur[0]
	a.cur = a.cur[1:]
	if d.end {
		a.lastErr = d.err // as line() keeps returning it
	}
	return d.e, d.err
}

// startAhead reads lines in batches on one goroutine and decodes each batch
// on its own goroutine, at most one per core, queueing the batches' results
// in file order.
func startAhead(r *reader) *readAhead {
	workers := runtime.GOMAXPROCS(0)
	queue := make(chan chan []decoded, workers*2)
	a := &readAhead{queue: queue, done: make(chan struct{})}
	go func() {
		defer close(queue)
		sem := make(chan struct{}, workers)
		for {
			var batch []pending
			var readErr error
			for size := 0; size < aheadBatch && len(batch) < aheadLines; {
				l, err := r.line()
				if err != nil {
					readErr = err
					break
				}
				batch = append(batch, l)
				size += len(l.b)
			}
			ch := make(chan []decoded, 1) // never blocks a decoder
			select {
			case queue <- ch:
			case <-a.done:
				return
			}
			select {
			case sem <- struct{}{}:
			case <-a.done:
				return
			}
			go func() {
				defer func() { <-sem }()
				out := make([]decoded, 0, len(batch)+1)
				for _, l := range batch {
					e, err := r.decode(l)
					out = append(out, decoded{e: e, err: err})
				}
				if readErr != nil {
					out = append(out, decoded{err: readErr, end: true})
				}
				ch <- out
			}()
			if readErr != nil {
				return
			}
		}
	}()
	return a
}
