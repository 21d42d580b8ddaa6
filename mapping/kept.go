package mapping

import "github.com/sesstool/sesstool/session"

// Calls knows, for the entries a writer has written, which message made
// each tool call. A compaction that must name a first kept entry but has
// none (an OpenCode summary, ash's "") keeps the entry before it (Kept): when
// that entry is a tool result, the message with its call instead, as a
// result without its call is no context (a provider refuses it) and as
// OpenCode holds the two as one message. The OpenCode writer predicts the
// same, so it reports the window it cannot hold.
type Calls struct {
	call   map[string]string // tool call id -> the id of the message that made it
	result map[string]string // tool result entry id -> the id of its call's message
}

// Add records entry e, written with id.
func (c *Calls) Add(e *session.Entry, id string) {
	m := e.Message
	if m == nil || id == "" {
		return
	}
	if c.call == nil {
		c.call, c.result = map[string]string{}, map[string]string{}
	}
	if m.Role == session.RoleTool {
		if at, ok := c.call[m.ToolCallID]; ok {
			c.result[id] = at
		}
		return
	}
	for _, b := range m.Content {
		if b.Type == session.BlockToolCall {
			c.call[b.ToolCallID] = id
		}
	}
}

// Kept is the entry to keep for a compaction whose entry before it is id.
func (c *Calls) Kept(id string) string {
	if at, ok := c.result[id]; ok {
		return at
	}
	return id
}
