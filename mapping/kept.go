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
	// OnlyLast says Kept is asked only about the entry added last (a
	// writer that places a compaction after what it has written): then no
	// tool result but the last is kept, where every one costs about 14
	// bytes (3 MiB at a million entries).
	OnlyLast bool

	call   idset.Hashed // tool call id -> index in msg of the message that made it
	result idset.Index  // tool result entry id -> index in msg of its call's message
	msg    []string     // ids of the messages that made calls
	// OnlyLast: the last entry added, and the index in msg of its call's
	// message when it is a tool result (else -1)
	last   string
	lastAt int32
}

// Add records entry e, written with id.
func (c *Calls) Add(e *session.Entry, id string) {
	m := e.Message
	if m == nil || id == "" {
		return
	}
	if c.OnlyLast {
		c.last, c.lastAt = id, -1
	}
	if m.Role == session.RoleTool {
		if at, ok := c.call.Get(m.ToolCallID); ok {
			if c.OnlyLast {
				c.lastAt = at
			} else {
				c.result.Put(id, at)
			}
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
	if c.OnlyLast {
		if id == c.last && c.lastAt >= 0 {
			return c.msg[c.lastAt]
		}
		return id
	}
	if at, ok := c.result.Get(id); ok {
		return c.msg[at]
	}
	return id
}
