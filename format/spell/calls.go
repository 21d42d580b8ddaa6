package spell

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
	msg    msgIDs       // ids of the messages that made calls
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
				k = c.msg.add(id)
			}
			c.call.Put(b.ToolCallID, k)
		}
	}
}

// Kept is the entry to keep for a compaction whose entry before it is id.
func (c *Calls) Kept(id string) string {
	if c.OnlyLast {
		if id == c.last && c.lastAt >= 0 {
			return c.msg.get(c.lastAt)
		}
		return id
	}
	if at, ok := c.result.Get(id); ok {
		return c.msg.get(at)
	}
	return id
}

// msgIDs keeps ids in 8 bytes each when they are pi's 8 hex digits, as a
// flat or tree writer's are, where a string took 24: a session makes a
// call in about every other message.
type msgIDs struct {
	v     []uint64 // an 8-hex id's bits, or other's index plus 1<<32
	other []string
}

func (m *msgIDs) add(id string) int32 {
	if h, ok := idset.Hex8(id); ok {
		m.v = append(m.v, uint64(h))
	} else {
		m.v = append(m.v, 1<<32|uint64(len(m.other)))
		m.other = append(m.other, id)
	}
	return int32(len(m.v) - 1)
}

func (m *msgIDs) get(k int32) string {
	if v := m.v[k]; v < 1<<32 {
		return idset.Hex8String(uint32(v))
	}
	return m.other[m.v[k]&(1<<32-1)]
}
