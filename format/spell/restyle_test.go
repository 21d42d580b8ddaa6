package spell

import (
	"strconv"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// The session id a style derives: kept in its form, else derived with the
// layout's seed; ash's fresh style derives even a UUID anew.
func TestSessionID(t *testing.T) {
	const u = "1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"
	tree := format.IDStyle{Form: format.IDHex8, Seed: "tree:"}
	ash := format.IDStyle{Form: format.IDUUID, Fresh: true}
	own := format.IDStyle{Form: "own", Minter: upperMinter{}}
	for _, c := range []struct {
		name  string
		style format.IDStyle
		meta  session.Meta
		want  string
	}{
		{"uuid kept", tree, session.Meta{ID: u}, u},
		{"other derived with the seed", tree, session.Meta{ID: "x"}, UUID("tree:x")},
		{"none: from cwd and creation", tree, session.Meta{Cwd: "/p", Created: session.Time{Raw: "t"}}, UUID("tree:/p\x00t")},
		{"fresh derives a uuid too", ash, session.Meta{ID: u}, UUID(u + ":" + u)},
		{"a layout's own form: its minter names the session", own, session.Meta{ID: "x"}, "X@5"},
	} {
		if got := SessionID(c.style, &c.meta, 5); got != c.want {
			t.Errorf("%s: SessionID = %s, want %s", c.name, got, c.want)
		}
	}
}

// upperMinter is a layout's own form of ids: upper case.
type upperMinter struct{}

func (upperMinter) Keeps(id string) bool { return id != "" && strings.ToUpper(id) == id }
func (upperMinter) Session(m *session.Meta, at int64) string {
	return strings.ToUpper(m.ID) + "@" + strconv.FormatInt(at, 10)
}

// A layout's own form of ids decides which source ids are kept: the rest
// are derived, as for the shared forms.
func TestIDsOfOwnForm(t *testing.T) {
	x := NewIDs(format.IDStyle{Form: "own", Minter: upperMinter{}}, &session.Meta{ID: "s"}, 7)
	if x.Session() != "S@7" {
		t.Errorf("session %q, want S@7", x.Session())
	}
	if got := x.Of("KEPT"); got != "KEPT" {
		t.Errorf("an id in the form became %q", got)
	}
	if got := x.Of("lower"); got == "lower" || got != UUID("s:lower") {
		t.Errorf("an id not in the form became %q, want %q", got, UUID("s:lower"))
	}
}

// Entry ids: one source id gives one id however often it is asked for; an
// id in the form is kept unless taken or the style is fresh; every other
// is derived from the source session and the source id.
func TestIDsOf(t *testing.T) {
	m := &session.Meta{ID: "s"}
	hex := NewIDs(format.IDStyle{Form: format.IDHex8}, m, 0)
	derived := hex.Of("msg-1")
	if !IsHex8(derived) || hex.Of("msg-1") != derived || derived != session.DerivedID("s:msg-1", 0, nil) {
		t.Errorf("hex8 derived %s", derived)
	}
	if hex.Of("a1000001") != "a1000001" || hex.Of("") != "" {
		t.Error("an 8-hex id was not kept")
	}
	// A kept id the derivation already handed out is derived again.
	clash := NewIDs(format.IDStyle{Form: format.IDHex8}, m, 0)
	d := clash.Of("x")
	if got := clash.Of(d); got == d || !IsHex8(got) {
		t.Errorf("taken id %s kept as %s", d, got)
	}
	const u = "1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"
	uuid := NewIDs(format.IDStyle{Form: format.IDUUID}, m, 0)
	if uuid.Of(u) != u || uuid.Of("x") != UUID("s:x") {
		t.Errorf("uuid: %s %s", uuid.Of(u), uuid.Of("x"))
	}
	fresh := NewIDs(format.IDStyle{Form: format.IDUUID, Fresh: true}, m, 0)
	if fresh.Of(u) != UUID("s:"+u) || fresh.Keeps(u) {
		t.Errorf("fresh kept %s", fresh.Of(u))
	}
	if n := uuid.Nth(3, nil); n != UUID(uuid.Session()+":3") {
		t.Errorf("Nth = %s", n)
	}
	if n := hex.Nth(3, func(c string) bool { return c == session.DerivedID(hex.Session(), 3, nil) }); n == session.DerivedID(hex.Session(), 3, nil) || !IsHex8(n) {
		t.Errorf("Nth handed out a taken id %s", n)
	}
}

// Mint names an entry that has no id: never an id handed out before it, and
// the source id that happens to equal it later is derived anew.
func TestIDsMint(t *testing.T) {
	m := &session.Meta{ID: "s"}
	x := NewIDs(format.IDStyle{Form: format.IDHex8}, m, 0)
	first := session.DerivedID(x.Session(), 2, nil)
	if got := x.Of(first); got != first {
		t.Fatalf("an unused 8-hex id was not kept: %s", got)
	}
	minted := x.Mint(2)
	if !IsHex8(minted) || minted == first {
		t.Errorf("Mint(2) = %s, the id already handed out is %s", minted, first)
	}
	if again := x.Of(minted); again == minted {
		t.Errorf("a source id equal to the minted %s was kept", minted)
	}
	if y := NewIDs(format.IDStyle{Form: format.IDHex8}, m, 0); y.Mint(2) != first {
		t.Errorf("Mint is not Nth's id when nothing is taken")
	}
}
