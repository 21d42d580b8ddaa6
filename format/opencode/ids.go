package opencode

import (
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"

	"github.com/sesstool/sesstool/session"
)

// idForm is OpenCode's form of ids, as its caps name it.
const idForm = "opencode"

// minter is OpenCode's form of ids, declared in its caps
// (format.IDStyle.Minter): package spell keeps an entry id of this form
// and asks here for a session's id; the encoder numbers every other
// message and part in ascending order (ascending).
type minter struct{}

// Keeps reports whether id is an OpenCode id of any prefix.
func (minter) Keeps(id string) bool { return isID("", id) }

// Session is m's id when it is a ses_ id, else a descending ses_ id for the
// session's first time, derived from its id.
func (minter) Session(m *session.Meta, at int64) string {
	if isID("ses", m.ID) {
		return m.ID
	}
	return newID("ses", at, 1, true, m.ID)
}

// Distinct is the n-th id distinct from id, an OpenCode id
// (format.Distincter): the same prefix and time part, so it sorts where id
// does, and a tail derived from id and n.
func (minter) Distinct(id string, n int) string {
	p, body, _ := strings.Cut(id, "_")
	return p + "_" + body[:12] + tail(id+"#"+strconv.Itoa(n))
}

// isID reports whether id is an OpenCode identifier with the given
// prefix: "<prefix>_" then 12 lowercase hex digits and 14 base62 characters
// (OpenCode's src/id/id.ts). An empty prefix accepts any.
func isID(prefix, id string) bool {
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

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// idChars classes bytes for isID: lowercase hex digits, other base62
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

// newID builds an OpenCode id as id.ts does: the low 48 bits of
// ms*4096+counter (bitwise NOT for descending ids, so newer sort first), as
// 12 hex digits, then 14 base62 characters. Where OpenCode draws the tail
// at random, ours comes from a hash of seed.
func newID(prefix string, ms int64, counter int64, descending bool, seed string) string {
	v := uint64(ms)*4096 + uint64(counter)
	if descending {
		v = ^v
	}
	v &= 1<<48 - 1
	return fmt.Sprintf("%s_%012x%s", prefix, v, tail(prefix+"\x00"+seed))
}

// tail is the 14 base62 characters that end an id, derived from seed where
// OpenCode draws them at random.
func tail(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	t := make([]byte, 14)
	for i := range t {
		t[i] = base62[int(sum[i])%62]
	}
	return string(t)
}

// ascending hands out OpenCode ids for one session in ascending order: the
// time part follows the entries' times and never goes backwards, so the ids
// sort as OpenCode's do.
type ascending struct {
	last uint64
}

// Next is the next id with prefix for an entry at ms.
func (g *ascending) Next(prefix string, ms int64, seed string) string {
	v := uint64(ms)*4096 + 1
	if v <= g.last {
		v = g.last + 1
	}
	g.last = v
	return newID(prefix, int64(v/4096), int64(v%4096), false, seed)
}
