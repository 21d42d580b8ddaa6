package spell

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/sesstool/sesstool/internal/idset"
)

// IsHex8 reports whether id has pi's and flat's entry id shape: eight
// lowercase hex digits. Writers ask it of every entry, hence no regexp.
func IsHex8(id string) bool {
	_, ok := idset.Hex8(id)
	return ok
}

// IsUUID reports whether id is a lowercase UUID.
func IsUUID(id string) bool {
	if len(id) != 36 || id[8] != '-' || id[13] != '-' || id[18] != '-' || id[23] != '-' {
		return false
	}
	return isLowerHex(id[:8]) && isLowerHex(id[9:13]) && isLowerHex(id[14:18]) && isLowerHex(id[19:23]) && isLowerHex(id[24:])
}

// IsSHA256 reports whether h is a SHA-256 in lowercase hex, the name of
// a content-addressed blob (goat's checkpoint files).
func IsSHA256(h string) bool { return len(h) == 64 && isLowerHex(h) }

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

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
