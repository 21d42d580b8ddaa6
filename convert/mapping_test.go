package convert

import (
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// TestFlatten: a linear target keeps the active path, root to the last
// entry, and counts the branches flattened and the entries left off it.
func TestFlatten(t *testing.T) {
	e := func(id, parent string) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Message: &session.Message{Role: session.RoleUser}}
	}
	// a -> b -> c, a -> d (abandoned), b -> f -> g (leaf, last entry)
	entries := []*session.Entry{e("a", ""), e("b", "a"), e("c", "b"), e("d", "a"), e("f", "b"), e("g", "f")}
	lost := &loss.Counter{}
	s := &session.Session{Entries: entries}
	r, err := Adapt(&session.SliceReader{S: s}, nil, format.Caps{Linear: true, Roles: []session.Role{session.RoleUser}}, "flat", lost)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	if got := join(ids); got != "a b f g" {
		t.Errorf("path = %s, want a b f g", got)
	}
	items := lost.Items()
	if len(items) != 2 || items[0].Kind != loss.Branch || items[0].Count != 2 || items[1].Kind != loss.OffPath || items[1].Count != 2 {
		t.Errorf("loss = %v, want 2 branches flattened and 2 off-path entries", items)
	}
	if items[0].String() != "2 branch flattened (flat is linear: only the active path (root to the last entry) is kept)" {
		t.Errorf("reason = %q", items[0].String())
	}
}

func join(xs []string) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}

func TestIDs(t *testing.T) {
	u := spell.UUID("s:1")
	if !spell.IsUUID(u) || u[14] != '4' || spell.UUID("s:1") != u || spell.UUID("s:2") == u {
		t.Errorf("UUID = %s: not a stable v4-shaped id", u)
	}
}

func TestTimes(t *testing.T) {
	tm := time.Date(2026, 1, 2, 3, 4, 5, 123456000, time.FixedZone("x", 3600))
	for _, c := range []struct{ got, want string }{
		{spell.ISO(tm), "2026-01-02T02:04:05.123Z"},
		{spell.PyTime(tm), "2026-01-02T02:04:05.123456+00:00"},
		{spell.PyTime(tm.Truncate(time.Second)), "2026-01-02T02:04:05+00:00"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	var c spell.Clock
	c.Start(session.Time{T: tm})
	if got := c.At(session.Time{}); !got.T.Equal(tm) {
		t.Errorf("Clock without a time gave %v", got)
	}
}

// TestClockEntry: an entry without a time (an ash tool result) takes its
// call's time, not the one of the entry just before it, nor the zero time.
func TestClockEntry(t *testing.T) {
	at := func(s int) session.Time { return session.Time{T: time.Date(2026, 11, 22, 8, 0, s, 0, time.UTC)} }
	call := func(id string, s int) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, Time: at(s), Message: &session.Message{Role: session.RoleAssistant,
			Content: []session.Block{{Type: session.BlockToolCall, ToolCallID: id}}}}
	}
	result := func(id string) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, Message: &session.Message{Role: session.RoleTool, ToolCallID: id}}
	}
	var c spell.Clock
	c.Start(at(0))
	var got []int
	for _, e := range []*session.Entry{result("none"), call("a", 3), call("b", 5), result("a"), result("b"), result("none")} {
		got = append(got, c.Entry(e).T.Second())
	}
	if want := []int{0, 3, 5, 3, 5, 5}; !slices.Equal(got, want) {
		t.Errorf("times (seconds) %v, want %v", got, want)
	}
}
