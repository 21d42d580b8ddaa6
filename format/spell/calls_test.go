package spell

import (
	"testing"

	"github.com/sesstool/sesstool/session"
)

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
