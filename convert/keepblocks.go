package convert

import (
	"slices"

	"github.com/sesstool/sesstool/session"
)

// keepBlocks is e with only the blocks of its message that keep accepts,
// and how many it left out; e itself, untouched, when it leaves out none.
// The rules that drop blocks share it, so none copies an entry by hand.
func keepBlocks(e *session.Entry, keep func(session.Block) bool) (*session.Entry, int) {
	return editBlocks(e, func(b session.Block) bool { return !keep(b) }, func(b session.Block) (session.Block, bool) { return b, false })
}

// editBlocks is e with each block of its message that edits picks as edit
// gives it, left out where edit says so (false), and how many it left out;
// e itself, untouched, when edits picks none. edit is called once for each
// block edits picks, in order, so it may count what it changes or drops.
// The rules that change blocks besides dropping them (images, signatures)
// share it with keepBlocks.
func editBlocks(e *session.Entry, edits func(session.Block) bool, edit func(session.Block) (session.Block, bool)) (*session.Entry, int) {
	m := e.Message
	if !slices.ContainsFunc(m.Content, edits) {
		return e, 0
	}
	cm := *m
	cm.Content = make([]session.Block, 0, len(m.Content))
	n := 0
	for _, b := range m.Content {
		if edits(b) {
			var ok bool
			if b, ok = edit(b); !ok {
				n++
				continue
			}
		}
		cm.Content = append(cm.Content, b)
	}
	c := *e
	c.Message = &cm
	return &c, n
}
