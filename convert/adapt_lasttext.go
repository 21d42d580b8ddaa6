package convert

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// lastText is e with only the last text block of an assistant message,
// where the target keeps no other (Caps.LastText: goat's program keeps
// the text of a response as one string, the last block's); the others
// are counted dropped.
func (a *adapted) lastText(e *session.Entry) *session.Entry {
	if !a.to.LastText || e.Message.Role != session.RoleAssistant {
		return e
	}
	texts := 0
	for _, b := range e.Message.Content {
		if b.Type == session.BlockText {
			texts++
		}
	}
	if texts < 2 {
		return e
	}
	seen := 0 // editBlocks gives edit the text blocks once each, in order
	c, n := editBlocks(e, func(b session.Block) bool { return b.Type == session.BlockText }, func(b session.Block) (session.Block, bool) {
		seen++
		return b, seen == texts
	})
	a.lost.Drop(loss.Block(session.BlockText), a.layout+" keeps only an assistant turn's last text block", n)
	return c
}
