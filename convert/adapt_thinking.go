package convert

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// ownThinking leaves out the thinking blocks of a message from another
// layout where the target takes back only its own (Caps.ThinkingOwnOnly:
// Claude Code sends a session's thinking back to the Anthropic API, which
// refuses a block without the signature it issued for that very text), and
// counts them with the reason the target declares. A message of thinking
// alone is dropped whole, what hung from it hanging from its parent. It
// runs after the entry is counted (countEntry), as what the message held
// was read before it was left out.
func (a *adapted) ownThinking(e *session.Entry) *session.Entry {
	if !a.to.ThinkingOwnOnly || e.Message == nil {
		return e
	}
	c, n := keepBlocks(e, func(b session.Block) bool { return b.Type != session.BlockThinking })
	if n == 0 {
		return e
	}
	why := a.to.ThinkingOwnOnlyWhy
	if why == "" {
		why = a.layout + " takes back only the thinking of its own sessions"
	}
	a.lost.Drop(loss.Block(session.BlockThinking), why, n)
	if len(c.Message.Content) == 0 {
		return a.drop(e)
	}
	return c
}
