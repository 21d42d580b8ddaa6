package mapping

import (
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/sesstool/sesstool/format"
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
	u := UUID("s:1")
	if !IsUUID(u) || u[14] != '4' || UUID("s:1") != u || UUID("s:2") == u {
		t.Errorf("UUID = %s: not a stable v4-shaped id", u)
	}
}

func TestTimes(t *testing.T) {
	tm := time.Date(2026, 1, 2, 3, 4, 5, 123456000, time.FixedZone("x", 3600))
	for _, c := range []struct{ got, want string }{
		{ISO(tm), "2026-01-02T02:04:05.123Z"},
		{PyTime(tm), "2026-01-02T02:04:05.123456+00:00"},
		{PyTime(tm.Truncate(time.Second)), "2026-01-02T02:04:05+00:00"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	var c Clock
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
	var c Clock
	c.Start(at(0))
	var got []int
	for _, e := range []*session.Entry{result("none"), call("a", 3), call("b", 5), result("a"), result("b"), result("none")} {
		got = append(got, c.Entry(e).T.Second())
	}
	if want := []int{0, 3, 5, 3, 5, 5}; !slices.Equal(got, want) {
		t.Errorf("times (seconds) %v, want %v", got, want)
	}
}

// TestCallsKept: a compaction that keeps the entry before it keeps a tool
// result's call with it.
func TestCallsKept(t *testing.T) {
	call := &session.Entry{ID: "a", Message: &session.Message{Role: session.RoleAssistant, Content: []session.Block{{Type: session.BlockToolCall, ToolCallID: "c1"}, {Type: session.BlockToolCall, ToolCallID: "c2"}}}}
	res := func(id, call string) *session.Entry {
		return &session.Entry{ID: id, Message: &session.Message{Role: session.RoleTool, ToolCallID: call}}
	}
	var c Calls
	for _, e := range []*session.Entry{{ID: "u", Message: &session.Message{Role: session.RoleUser}}, call, res("r1", "c1"), res("r2", "c2"), res("r3", "elsewhere")} {
		c.Add(e, "w-"+e.ID)
	}
	for id, want := range map[string]string{"w-u": "w-u", "w-a": "w-a", "w-r1": "w-a", "w-r2": "w-a", "w-r3": "w-r3", "": ""} {
		if got := c.Kept(id); got != want {
			t.Errorf("Kept(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestCallsKeptOnlyLast: with OnlyLast, Kept of the entry added last
// answers as without it, after each entry, and keeps no result before it.
func TestCallsKeptOnlyLast(t *testing.T) {
	call := &session.Entry{ID: "a", Message: &session.Message{Role: session.RoleAssistant, Content: []session.Block{{Type: session.BlockToolCall, ToolCallID: "c1"}, {Type: session.BlockToolCall, ToolCallID: "c2"}}}}
	res := func(id, call string) *session.Entry {
		return &session.Entry{ID: id, Message: &session.Message{Role: session.RoleTool, ToolCallID: call}}
	}
	var all Calls
	last := Calls{OnlyLast: true}
	for _, e := range []*session.Entry{{ID: "u", Message: &session.Message{Role: session.RoleUser}}, call, res("r1", "c1"), res("r2", "c2"), res("r3", "elsewhere"), res("r4", "c1")} {
		id := "w-" + e.ID
		all.Add(e, id)
		last.Add(e, id)
		if got, want := last.Kept(id), all.Kept(id); got != want {
			t.Errorf("after %s: Kept = %q, want %q", id, got, want)
		}
	}
	if got := last.Kept("w-r1"); got != "w-r1" {
		t.Errorf("Kept of an earlier result = %q, want it unchanged (only the last is kept)", got)
	}
	if _, ok := last.result.Get("w-r4"); ok {
		t.Errorf("OnlyLast kept a result in the index")
	}
}

// TestMsgIDs: ids come back exactly, whether packed (8 lowercase hex
// digits) or kept as strings (anything else, uppercase hex included).
func TestMsgIDs(t *testing.T) {
	ids := []string{"0a1b2c3d", "w-a", "ffffffff", "0A1B2C3D", "00000000", "", "0a1b2c3d9", "deadbeef"}
	var m msgIDs
	for i, id := range ids {
		if k := m.add(id); k != int32(i) {
			t.Fatalf("add(%q) = %d, want %d", id, k, i)
		}
	}
	for i, id := range ids {
		if got := m.get(int32(i)); got != id {
			t.Errorf("get(%d) = %q, want %q", i, got, id)
		}
	}
	if len(m.other) != 4 {
		t.Errorf("%d ids kept as strings, want 4 (w-a, the uppercase one, the empty one, the 9-digit one): %q", len(m.other), m.other)
	}
}
