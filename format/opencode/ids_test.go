package opencode

import (
	"strconv"
	"testing"
)

func fmtInt(i int) string { return strconv.Itoa(i) }

// The generator matches OpenCode's id.ts on the values the research checked.
func TestNewID(t *testing.T) {
	for _, c := range []struct {
		prefix string
		ms     int64
		ctr    int64
		desc   bool
		want   string
	}{
		{"msg", 1795235011031, 1, false, "msg_1fc5859d7001"},
		{"ses", 1795235010997, 1, true, "ses_e03a7a64affe"},
	} {
		got := NewID(c.prefix, c.ms, c.ctr, c.desc, "seed")
		if got[:len(c.want)] != c.want || !ValidID(c.prefix, got) {
			t.Errorf("NewID(%d,%d) = %s, want prefix %s", c.ms, c.ctr, got, c.want)
		}
	}
	for id, ok := range map[string]bool{
		"msg_1fc5859d7001oXixmkaPH5k0Xd": true,
		"msg_1fc5859d7001oXixmkaPH5k0X":  false,
		"msg_1fc5859d700GoXixmkaPH5k0Xd": false,
		"prt_1fc5859d7001oXixmkaPH5k0Xd": false,
		"msg_1fc5859d7001oXixmkaPH5k0X-": false,
	} {
		if ValidID("msg", id) != ok {
			t.Errorf("ValidID(%s) != %v", id, ok)
		}
	}
	var g idGen
	a, b := g.next("prt", 100, "a"), g.next("prt", 100, "b")
	if !(a[:16] < b[:16]) {
		t.Errorf("ids not ascending: %s %s", a, b)
	}
}
