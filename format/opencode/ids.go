package opencode

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/sesstool/sesstool/format"
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// ValidID reports whether id is an OpenCode identifier with the given prefix:
// "<prefix>_" then 12 lowercase hex digits and 14 base62 characters
// (src/id/id.ts). An empty prefix accepts any known one.
func ValidID(prefix, id string) bool {
	p, body, ok := strings.Cut(id, "_")
	if !ok || (prefix != "" && p != prefix) || len(body) != 26 {
		return false
	}
	for i := 0; i < 26; i++ {
		if c := idChars[body[i]]; c == 0 || (i < 12 && c != lowerHex) {
			return false
		}
	}
	return true
}

// idChars classes bytes for ValidID: lowercase hex digits, other base62
// characters, and the rest (0).
var idChars = func() (t [256]uint8) {
	for i := 0; i < len(base62); i++ {
		t[base62[i]] = otherBase62
	}
	for _, c := range "0123456789abcdef" {
		t[c] = lowerHex
	}
	return t
}()

const (
	lowerHex    = 1
	otherBase62 = 2
)

// SafeKey reports whether an id may become a file or directory name, by
// the rule every layout's validator applies (format.UnsafeID): no
// separators, parent references or control characters, UTF-8, at most 255
// bytes.
func SafeKey(id string) bool { return format.UnsafeID(id) == "" }

// NewID builds an OpenCode-compatible id as id.ts does: the low 48 bits of
// ms*4096+counter (bitwise NOT for descending ids, so newer sort first), as 12
// hex digits, then 14 base62 characters. Where OpenCode draws the tail at
// random, ours comes from a hash of seed, so the same input gives the same id.
func NewID(prefix string, ms int64, counter int64, descending bool, seed string) string {
	v := uint64(ms)*4096 + uint64(counter)
	if descending {
		v = ^v
	}
	v &= 1<<48 - 1
	sum := sha256.Sum256([]byte(prefix + "\x00" + seed))
	tail := make([]byte, 14)
	for i := range tail {
		tail[i] = base62[int(sum[i])%62]
	}
	return fmt.Sprintf("%s_%012x%s", prefix, v, tail)
}

// idGen hands out ascending ids for one session: the time part follows the
// entries' times, and never goes backwards, so the ids sort as OpenCode's do.
type idGen struct {
	last uint64
}

func (g *idGen) next(prefix string, ms int64, seed string) string {
	v := uint64(ms)*4096 + 1
	if v <= g.last {
		v = g.last + 1
	}
	g.last = v
	return NewID(prefix, int64(v/4096), int64(v%4096), false, seed)
}
