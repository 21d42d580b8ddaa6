package mapping

import (
	"github.com/sesstool/sesstool/internal/idset"
	"github.com/sesstool/sesstool/session"
)

// Calls knows, for the entries a writer has written, which message made
// each tool call. A compaction that must name a first kept entry but has
// none (an OpenCode summary, ash's "") keeps the entry before it (Kept): when
// that entry is a tool result, the message with its call instead, as a
// result without its call is no context (a provider refuses it) and as
// OpenCode holds the two as one message. The OpenCode writer predicts the
// same, so it reports the window it cannot hold.
//
// It keeps a few bytes per call: call ids by hash, entry ids packed
// (idset), and each calling message's id once.
type Calls struct {
	call   idset.Hashed // tool call id -> index in msg of the message that made it
	result idset.Index  // tool result entry id -> index in msg of its call's message
	msg    []string     // ids of the messages that made calls
}

// Add records entry e, written with id.
func (c *Calls) Add(e *session.Entry, id string) {
	m := e.Message
	if m == nil || id == "" {
		return
	}
	if m.Role == session.RoleTool {
		if at, ok := c.call.Get(m.ToolCallID); ok {
			c.result.Put(id, at)
		}
		return
	}
	k := int32(-1)
	for _, b := range m.Content {
		if b.Type == session.BlockToolCall {
			if k < 0 {
				k = int32(len(c.msg))
				c.msg = append(c.msg, id)
			}
			c.call.Put(b.ToolCallID, k)
		}
	}
}

// Kept is the entry to keep for a compaction whose entry before it is id.
func (c *Calls) Kept(id string) string {
	if at, ok := c.result.Get(id); ok {
		return c.msg[at]
	}
	return id
}
