package session

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// DerivedID returns a deterministic 8-hex entry id for the entry on the given
// 1-based line of the session with sessionID, as pi's own ids look. taken
// reports ids already in use (in the file, or handed out before); on a
// collision the derivation is salted with a counter until it is free, so ids
// are unique within the file and never collide with ids already present.
//
// pi draws random ids; ours depend only on the session id and line position,
// so the same input always gives the same bytes.
func DerivedID(sessionID string, line int, taken func(string) bool) string {
	seed := sessionID + ":" + strconv.Itoa(line)
	for salt := 0; ; salt++ {
		s := seed
		if salt > 0 {
			s += "#" + strconv.Itoa(salt)
		}
		sum := sha256.Sum256([]byte(s))
		id := hex.EncodeToString(sum[:4])
		if taken == nil || !taken(id) {
			return id
		}
	}
}
