package mapping

import (
	"errors"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// Again is a second reading of r, the session a writer was handed, for a
// writer that reads it twice (OpenCode's: a tool call's part carries its
// result, which comes later): the same entries r gives, from their start.
// When r is what Adapt returned for a linear target, the second reading
// reuses its path and counts nothing (Adapt counted what it drops once);
// a session passed through as it was read (the layout's own) is reopened.
// The caller closes what it returns.
func Again(r session.Reader, reopen func() (session.Reader, error)) (session.Reader, error) {
	a, ok := r.(*adapted)
	if !ok {
		if reopen == nil {
			return nil, errors.New("the session cannot be read again")
		}
		return reopen()
	}
	if a.path == nil || a.reopen == nil {
		return nil, errors.New("the adapted session cannot be read again: it was adapted for a tree, or held")
	}
	src, err := a.reopen()
	if err != nil {
		return nil, err
	}
	if t, ok := src.(interface{ Transient() }); ok {
		t.Transient()
	}
	return &adapted{src: src, meta: a.meta, to: a.to, layout: a.layout, lost: &loss.Counter{}, path: a.path, marks: a.marks, last1: -1}, nil
}
