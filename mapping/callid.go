package mapping

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/sesstool/sesstool/session"
)

// CallID is the id minted for the n-th content block of the entry entryID
// of session sessionID when that block is a tool call without an id of its
// own (Codex's web_search calls have no call_id): every layout that names
// calls needs one, unique in the session, and the same on every run, so it
// is a hash of where the call is.
func CallID(sessionID, entryID string, n int) string {
	sum := sha256.Sum256([]byte(sessionID + "\x00" + entryID + "\x00" + strconv.Itoa(n)))
	return "call_" + hex.EncodeToString(sum[:12])
}

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
			b.ToolCallID = CallID(sessionID, e.ID, i)
		}
	}
	return &cm
}
