package spell

import (
	"strconv"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// Ids are restyled here, and only here: a layout declares its form of ids
// as data (format.Caps.IDs), and a writer asks for the ids of a session from
// another layout rather than spelling them itself. Every derivation is a
// hash of the source, so the same input always gives the same bytes.

// SessionID is the id a session read with meta m is written under by a
// layout of style s: its own when it already has the form (a UUID, or the
// form of a layout's own Minter), else derived from it with the layout's
// seed (from its working directory and creation time when it has none). at
// is the session's first time in Unix milliseconds, which a Minter may
// spell.
func SessionID(s format.IDStyle, m *session.Meta, at int64) string {
	switch {
	case s.Minter != nil:
		return s.Minter.Session(m, at)
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
func (x *IDs) Keeps(id string) bool { return KeepsID(x.style, id) }

// KeepsID reports whether id already has the form of entry ids a layout of
// style s declares, and is written as it is.
func KeepsID(s format.IDStyle, id string) bool {
	if s.Fresh {
		return false
	}
	if s.Minter != nil {
		return s.Minter.Keeps(id)
	}
	switch s.Form {
	case format.IDHex8:
		return IsHex8(id)
	case format.IDUUID:
		return IsUUID(id)
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
