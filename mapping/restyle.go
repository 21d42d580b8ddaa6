package mapping

import (
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// Ids are restyled here, and only here: a layout declares its form of ids
// as data (format.Caps.IDs), and a writer asks for the ids of a session from
// another layout rather than spelling them itself. Every derivation is a
// hash of the source, so the same input always gives the same bytes.

// SessionID is the id a session read with meta m is written under by a
// layout of style s: its own when it already has the form (a UUID; an
// OpenCode ses_ id), else derived from it with the layout's seed (from its
// working directory and creation time when it has none). at is the
// session's first time in Unix milliseconds, which an OpenCode id spells.
func SessionID(s format.IDStyle, m *session.Meta, at int64) string {
	switch {
	case s.Form == format.IDOpenCode:
		if IsOpenCodeID("ses", m.ID) {
			return m.ID
		}
		return OpenCodeID("ses", at, 1, true, m.ID)
	case s.Fresh && m.ID != "":
		return UUID(m.ID + ":" + m.ID)
	case !s.Fresh && IsUUID(m.ID):
		return m.ID
	case m.ID == "":
		return UUID(s.Seed + m.Cwd + "\x00" + m.Created.Raw)
	}
	return UUID(s.Seed + m.ID)
}

// ParentSessionID is the id a fork's parent session, whose id is id, is
// written under, so that it names the parent converted alongside it.
func ParentSessionID(s format.IDStyle, id string) string {
	return SessionID(s, &session.Meta{ID: id}, 0)
}

// IDs hands out the ids one session from another layout is written with,
// in the form a layout declares.
type IDs struct {
	style   format.IDStyle
	source  string // the session id as read: derived entry ids hash it
	session string // the session id as written
	ids     map[string]string
	taken   map[string]bool
}

// NewIDs restyles the session read with meta m for a layout of style s; at
// is as for SessionID.
func NewIDs(s format.IDStyle, m *session.Meta, at int64) *IDs {
	return &IDs{style: s, source: m.ID, session: SessionID(s, m, at), ids: map[string]string{}, taken: map[string]bool{}}
}

// Session is the id the session is written under.
func (x *IDs) Session() string { return x.session }

// Keeps reports whether id already has the layout's form of entry ids,
// and may be written as it is.
func (x *IDs) Keeps(id string) bool {
	if x.style.Fresh {
		return false
	}
	switch x.style.Form {
	case format.IDHex8:
		return IsHex8(id)
	case format.IDUUID:
		return IsUUID(id)
	case format.IDOpenCode:
		return IsOpenCodeID("", id)
	}
	return false
}

// Of is the id the entry with source id src is written as, the same for
// the entry and every reference to it: src itself when the layout keeps it
// and no other entry has it yet, else one derived from the source session's
// id and src. "" stays "".
func (x *IDs) Of(src string) string {
	if src == "" {
		return ""
	}
	if x.style.Fresh && x.style.Form == format.IDUUID {
		// a hash of src alone, whatever came before: nothing to remember,
		// so a writer's memory stays flat in the session's size (ash)
		return x.derive(x.source+":"+src, 0, nil)
	}
	if v, ok := x.ids[src]; ok {
		return v
	}
	v := src
	if !x.Keeps(src) || x.taken[src] {
		v = x.derive(x.source+":"+src, 0, func(c string) bool { return x.taken[c] })
	}
	x.ids[src] = v
	x.taken[v] = true
	return v
}

// Nth is the id derived for the n-th thing a writer numbers (a line, a
// message) from the written session's id: what a writer makes that has no
// id of its own, or a layout that numbers its entries (flat's lines, goat's
// messages). taken reports ids in use, which the 8-hex form passes over.
func (x *IDs) Nth(n int, taken func(string) bool) string {
	if x.style.Form == format.IDHex8 {
		return x.derive(x.session, n, taken)
	}
	return x.derive(x.session+":"+strconv.Itoa(n), 0, taken)
}

// Mint is an id for the n-th entry when it has none of its own (another
// layout's entry of a type only it knows, which a tree layout must still
// name): Nth's id, passing over the ids handed out so far and kept from
// those handed out later.
func (x *IDs) Mint(n int) string {
	v := x.Nth(n, func(c string) bool { return x.taken[c] })
	x.taken[v] = true
	return v
}

func (x *IDs) derive(seed string, n int, taken func(string) bool) string {
	if x.style.Form == format.IDHex8 {
		return session.DerivedID(seed, n, taken)
	}
	return UUID(seed)
}

// IsOpenCodeID reports whether id is an OpenCode identifier with the given
// prefix: "<prefix>_" then 12 lowercase hex digits and 14 base62 characters
// (OpenCode's src/id/id.ts). An empty prefix accepts any.
func IsOpenCodeID(prefix, id string) bool {
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

// idChars classes bytes for IsOpenCodeID: lowercase hex digits, other
// base62 characters, and the rest (0).
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

// OpenCodeID builds an OpenCode id as id.ts does: the low 48 bits of
// ms*4096+counter (bitwise NOT for descending ids, so newer sort first), as
// 12 hex digits, then 14 base62 characters. Where OpenCode draws the tail
// at random, ours comes from a hash of seed.
func OpenCodeID(prefix string, ms int64, counter int64, descending bool, seed string) string {
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

// Ascending hands out OpenCode ids for one session in ascending order: the
// time part follows the entries' times and never goes backwards, so the ids
// sort as OpenCode's do.
type Ascending struct {
	last uint64
}

// Next is the next id with prefix for an entry at ms.
func (g *Ascending) Next(prefix string, ms int64, seed string) string {
	v := uint64(ms)*4096 + 1
	if v <= g.last {
		v = g.last + 1
	}
	g.last = v
	return OpenCodeID(prefix, int64(v/4096), int64(v%4096), false, seed)
}
