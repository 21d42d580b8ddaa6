package claude

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// foreignThinking leaves out the thinking blocks of a message Claude Code
// did not write, and counts them as lost. Claude Code sends a session's
// thinking back to the model as it is written, and the Anthropic API
// refuses an assistant thinking block (or redacted_thinking) unless it
// carries the signature Anthropic issued for that very text; a block from
// another layout has none, or one of another provider, or one nothing here
// can show is Anthropic's. ok is false when nothing is left of the message
// (thinking alone), which is then not written at all.
func (w *writer) foreignThinking(e *session.Entry) (out *session.Entry, ok bool) {
	m := e.Message
	n := 0
	for _, b := range m.Content {
		if b.Type == session.BlockThinking {
			n++
		}
	}
	if n == 0 {
		return e, true
	}
	w.lost.Add(loss.Block(session.BlockThinking), loss.Dropped, "the Anthropic API takes a thinking block back only with the signature Anthropic issued for it, which a session from another layout cannot be shown to carry; Claude Code would send it on resuming and be refused, so it is left out", n)
	if n == len(m.Content) {
		return nil, false
	}
	cm := *m
	cm.Content = make([]session.Block, 0, len(m.Content)-n)
	for _, b := range m.Content {
		if b.Type != session.BlockThinking {
			cm.Content = append(cm.Content, b)
		}
	}
	c := *e
	c.Message = &cm
	return &c, true
}
