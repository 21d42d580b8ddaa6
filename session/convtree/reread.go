package convtree

import (
	"errors"
	"fmt"
	"io"

	"github.com/sesstool/sesstool/session"
)

// Index reads a session once for its active path, calling add for each
// entry (x.Add, or x.Skip for an entry the writer handles apart), and
// returns a reader of the entries for the writing pass: a second read
// through reopen, so memory stays flat in session size, or, when reopen is
// nil (an input that can be read only once), the entries held from the
// first read. r is closed. The parent ids are read by the rule r's session
// declares (session.Meta.MessageLinks).
func Index(r session.Reader, reopen func() (session.Reader, error), add func(*PathIndex, *session.Entry)) (*PathIndex, session.Reader, error) {
	x := &PathIndex{MessageLinks: r.Meta().MessageLinks}
	if reopen == nil {
		s, err := session.ReadAll(r)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range s.Entries {
			add(x, e)
		}
		return x, &session.SliceReader{S: s}, nil
	}
	var err error
	if s, ok := r.(Skimmer); ok {
		err = skimAll(s, func(e *session.Entry) { add(x, e) })
	} else {
		err = session.Each(r, func(e *session.Entry) error { add(x, e); return nil })
	}
	r.Close()
	if err != nil {
		return nil, nil, err
	}
	// The writing pass decodes on the calling goroutine: the input's and
	// the output's validators take the other core (decoding ahead on every
	// core measured no faster, with 3 MiB more live heap).
	again, err := reopen()
	return x, again, err
}

// Skimmer is implemented by readers that can return the next entry with
// only its place in the tree, for much less than the whole entry: Origin,
// Line, Type, Kind, ID, ParentID, Sidechain and a message's Role, which are
// all the index pass reads (add must read no more). Errors are Next's.
type Skimmer interface {
	Skim() (*session.Entry, error)
}

func skimAll(s Skimmer, f func(*session.Entry)) error {
	for {
		e, err := s.Skim()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		f(e)
	}
}

// Walk reads the writing pass's entries in order and calls f with each and
// whether it is on the active path; Plan must have run. It fails when r
// holds other entries than were indexed (the input changed between reads).
func (x *PathIndex) Walk(r session.Reader, f func(e *session.Entry, on bool) error) error {
	i := 0
	err := session.Each(r, func(e *session.Entry) error {
		if i >= x.Len() {
			return fmt.Errorf("the session has more entries than when it was first read")
		}
		on := x.OnPath(i)
		i++
		return f(e, on)
	})
	if err == nil && i != x.Len() {
		err = fmt.Errorf("the session has %d entries, but had %d when it was first read", i, x.Len())
	}
	return err
}
