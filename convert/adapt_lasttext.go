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
	texts, last := 0, -1
	for i, b := range e.Message.Content {
		if b.Type == session.BlockText {
			texts++
			last = i
		}
	}
	if texts < 2 {
		return e
	}
	c, cm := *e, *e.Message
	cm.Content = make([]session.Block, 0, len(cm.Content)-texts+1)
	for i, b := range e.Message.Content {
		if b.Type != session.BlockText || i == last {
			cm.Content = append(cm.Content, b)
		}
	}
	c.Message = &cm
	a.lost.Drop(loss.Block(session.BlockText), a.layout+" keeps only an assistant turn's last text block", texts-1)
	return &c
}
