package convert

import "github.com/sesstool/sesstool/session"

// keepBlocks is e with only the blocks of its message that keep accepts,
// and how many it left out; e itself, untouched, when it leaves out none.
// The rules that drop blocks share it, so none copies an entry by hand.
func keepBlocks(e *session.Entry, keep func(session.Block) bool) (*session.Entry, int) {
	m := e.Message
	n := 0
	for _, b := range m.Content {
		if !keep(b) {
			n++
		}
	}
	if n == 0 {
		return e, 0
	}
	cm := *m
	cm.Content = make([]session.Block, 0, len(m.Content)-n)
	for _, b := range m.Content {
		if keep(b) {
			cm.Content = append(cm.Content, b)
		}
	}
	c := *e
	c.Message = &cm
	return &c, n
}
