package convert

import (
	"errors"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// The adapted session is a format.Adapted: what a writer may ask of it.
var _ format.Adapted = (*adapted)(nil)

// Again is a second reading of the adapted session, for a writer that
// reads it twice (OpenCode's: a tool call's part carries its result, which
// comes later; format.ReadAgain): the same entries, from their start. For
// a linear target the second reading reuses the path and counts nothing
// (Adapt counted what it drops once). The caller closes what it returns.
func (a *adapted) Again() (session.Reader, error) {
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
	return &adapted{src: src, meta: a.meta, to: a.to, layout: a.layout, lost: &loss.Counter{}, path: a.path, marks: a.marks, last1: -1, noModel: a.noModel}, nil
}
