package flat

import "testing"

// TestIDTable: the taken and reserved flags and the written id of one slot
// are kept apart, whatever order they are set in.
func TestIDTable(t *testing.T) {
	var tb idTable
	tb.reserve("aaaaaaaa")
	tb.add("bbbbbbbb")
	tb.set("aaaaaaaa", "aaaaaaaa")
	tb.add("aaaaaaaa")
	tb.set("cccccccc", "dddddddd")
	tb.add("dddddddd")
	tb.set("a-long-source-id-of-another-layout", "eeeeeeee")
	tb.set("bbbbbbbb", "ffffffff")
	for _, c := range []struct {
		id              string
		taken, reserved bool
		written         string
	}{
		{"aaaaaaaa", true, true, "aaaaaaaa"},
		{"bbbbbbbb", true, false, "ffffffff"},
		{"cccccccc", false, false, "dddddddd"},
		{"dddddddd", true, false, ""},
		{"a-long-source-id-of-another-layout", false, false, "eeeeeeee"},
		{"eeeeeeee", false, false, ""},
		{"", false, false, ""},
	} {
		if got := tb.has(c.id); got != c.taken {
			t.Errorf("has(%q) = %v, want %v", c.id, got, c.taken)
		}
		if got := tb.reserved(c.id); got != c.reserved {
			t.Errorf("reserved(%q) = %v, want %v", c.id, got, c.reserved)
		}
		if got := tb.get(c.id); got != c.written {
			t.Errorf("get(%q) = %q, want %q", c.id, got, c.written)
		}
	}
}
