package convert

import (
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/session"
)

// mintCallIDs gives the tool calls of m without an id one (CallID); m is
// returned as it is when every call has one, else a copy.
func mintCallIDs(sessionID string, e *session.Entry, m *session.Message) *session.Message {
	missing := false
	for _, b := range m.Content {
		if b.Type == session.BlockToolCall && b.ToolCallID == "" {
			missing = true
			break
		}
	}
	if !missing {
		return m
	}
	cm := *m
	cm.Content = append([]session.Block(nil), m.Content...)
	for i := range cm.Content {
		if b := &cm.Content[i]; b.Type == session.BlockToolCall && b.ToolCallID == "" {
			b.ToolCallID = spell.CallID(sessionID, e.ID, i)
		}
	}
	return &cm
}
