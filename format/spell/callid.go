package spell

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
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
