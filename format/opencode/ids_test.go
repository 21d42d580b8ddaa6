package opencode

import (
	"github.com/tidwall/gjson"
	"testing"
)

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

// Messages are ordered by time.created, then id: an id minted after the
// 2026-08-14 wrap (msg_0…) sorts before an older one (msg_f…) as a string,
// but comes after it in the conversation.
func TestMessageOrder(t *testing.T) {
	before := NewID("msg", 1786706395000-1, 1, false, "a") // just before the wrap
	after := NewID("msg", 1786706395000+5000, 1, false, "b")
	if !(after < before) {
		t.Fatalf("expected the post-wrap id to sort first: %s %s", before, after)
	}
	ms := []Msg{
		{Info: []byte(`{"id":"` + after + `","time":{"created":1786706400000}}`)},
		{Info: []byte(`{"id":"msg_ffffffffffffzzzzzzzzzzzzzz","time":{"created":1786706394999}}`)},
		{Info: []byte(`{"id":"` + before + `","time":{"created":1786706394999}}`)},
	}
	sortMessages(ms)
	var got []string
	for _, m := range ms {
		got = append(got, gjson.GetBytes(m.Info, "id").String())
	}
	want := []string{before, "msg_ffffffffffffzzzzzzzzzzzzzz", after}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
}
