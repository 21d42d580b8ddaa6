package format

import (
	"errors"

	"github.com/sesstool/sesstool/session"
)

// Adapted is implemented by the session the adaptation hands a writer
// (package convert) for a linear target: what it knows of the active path,
// which a writer may use, without importing the conversion package, to
// spell what it writes.
type Adapted interface {
	// PathIDs calls f once for each distinct id of an entry the session
	// will give (a writer reserves the ids it keeps before it derives
	// others), and reports whether it could.
	PathIDs(f func(id string)) bool
	// PathTimes returns the times of the first and last entries of the
	// active path read so far, entries the target does not keep included:
	// the session's span, which a layout that records it keeps.
	PathTimes() (first, last session.Time, ok bool)
	// Again is a second reading of the session from its first entry, for
	// a writer that reads it twice; it counts nothing.
	Again() (session.Reader, error)
}

// PathIDs is r's Adapted.PathIDs; false when r was not adapted for a
// linear target.
func PathIDs(r session.Reader, f func(id string)) bool {
	a, ok := r.(Adapted)
	return ok && a.PathIDs(f)
}

// PathTimes is r's Adapted.PathTimes; ok is false when r was not adapted
// for a linear target.
func PathTimes(r session.Reader) (first, last session.Time, ok bool) {
	if a, isA := r.(Adapted); isA {
		return a.PathTimes()
	}
	return session.Time{}, session.Time{}, false
}

// ReadAgain is a second reading of r, the session a writer was handed: the
// adaptation's (Adapted.Again) when it adapted r, else reopen's (a session
// of the layout's own passes through as it was read).
func ReadAgain(r session.Reader, reopen func() (session.Reader, error)) (session.Reader, error) {
	if a, ok := r.(Adapted); ok {
		return a.Again()
	}
	if reopen == nil {
		return nil, errors.New("the session cannot be read again")
	}
	return reopen()
}
