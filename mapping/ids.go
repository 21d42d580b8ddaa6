package mapping

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"

	"github.com/sesstool/sesstool/session"
)

var (
	hex8RE = regexp.MustCompile(`^[0-9a-f]{8}$`)
	uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

// IsHex8 reports whether id has pi's and flat's entry id shape.
func IsHex8(id string) bool { return hex8RE.MatchString(id) }

// IsUUID reports whether id is a lowercase UUID.
func IsUUID(id string) bool { return uuidRE.MatchString(id) }

// UUID returns a deterministic UUIDv4-shaped id derived from seed (ash and
// goat ids, session ids for sources without one). Agents draw these at
// random; ours depend only on the seed, so output is reproducible.
func UUID(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	sum[6] = sum[6]&0x0f | 0x40
	sum[8] = sum[8]&0x3f | 0x80
	h := hex.EncodeToString(sum[:16])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// Hex8 returns a deterministic 8-hex entry id (tree and flat) for the
// entry written on the given line of the session; taken reports ids in use.
func Hex8(sessionID string, line int, taken func(string) bool) string {
	return session.DerivedID(sessionID, line, taken)
}
