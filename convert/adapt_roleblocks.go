package convert

import (
	"slices"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// roleBlocks drops the blocks a message of a role does not hold where the
// target holds fewer on that role than at all (Caps.BlocksOn), counted with
// the role's reason. It runs after the entry is counted, as its writer
// once dropped them.
func (a *adapted) roleBlocks(e *session.Entry) *session.Entry {
	rb, ok := a.to.BlocksOn[e.Message.Role]
	if !ok {
		return e
	}
	c, _ := editBlocks(e, func(b session.Block) bool { return !slices.Contains(rb.Types, b.Type) }, func(b session.Block) (session.Block, bool) {
		a.lost.Drop(loss.Block(b.Type), rb.Why, 1)
		return b, false
	})
	return c
}
