package opencode

import (
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/session"
)

// The generator matches OpenCode's id.ts on the values checked against it.
func TestOpenCodeID(t *testing.T) {
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
		got := newID(c.prefix, c.ms, c.ctr, c.desc, "seed")
		if got[:len(c.want)] != c.want || !isID(c.prefix, got) {
			t.Errorf("newID(%d,%d) = %s, want prefix %s", c.ms, c.ctr, got, c.want)
		}
	}
	for id, ok := range map[string]bool{
		"msg_1fc5859d7001oXixmkaPH5k0Xd": true,
		"msg_1fc5859d7001oXixmkaPH5k0X":  false,
		"msg_1fc5859d700GoXixmkaPH5k0Xd": false,
		"prt_1fc5859d7001oXixmkaPH5k0Xd": false,
		"msg_1fc5859d7001oXixmkaPH5k0X-": false,
	} {
		if isID("msg", id) != ok {
			t.Errorf("isID(%s) != %v", id, ok)
		}
	}
	var g ascending
	a, b := g.Next("prt", 100, "a"), g.Next("prt", 100, "b")
	if !(a[:16] < b[:16]) {
		t.Errorf("ids not ascending: %s %s", a, b)
	}
}

// isID's byte table says what the character lists of id.ts say, for every
// byte at a hex position and at a base62 one.
func TestOpenCodeIDTable(t *testing.T) {
	ref := func(id string) bool {
		body := id[len("msg_"):]
		for i := 0; i < 26; i++ {
			set := base62
			if i < 12 {
				set = "0123456789abcdef"
			}
			if !strings.ContainsRune(set, rune(body[i])) {
				return false
			}
		}
		return true
	}
	for c := 0; c < 256; c++ {
		for _, at := range []int{0, 11, 12, 25} {
			b := []byte("msg_1fc5859d7001oXixmkaPH5k0Xd")
			b[len("msg_")+at] = byte(c)
			if got, want := isID("msg", string(b)), ref(string(b)); got != want {
				t.Errorf("isID(%q) = %v, want %v", b, got, want)
			}
		}
	}
}

// The session id OpenCode's minter gives a session (spell.SessionID with
// its caps): a ses_ id is kept, any other becomes a descending ses_ id for
// the session's first time.
func TestSessionIDs(t *testing.T) {
	const u = "1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"
	const ses = "ses_e03a7a64affe0wHc2prdw2R2s7"
	for _, c := range []struct {
		name, id, want string
	}{
		{"ses_ id kept", ses, ses},
		{"msg_ id derived", "msg_e03a7a64affe0wHc2prdw2R2s7", newID("ses", 5, 1, true, "msg_e03a7a64affe0wHc2prdw2R2s7")},
		{"uuid derived", u, newID("ses", 5, 1, true, u)},
	} {
		if got := spell.SessionID(caps.IDs, &session.Meta{ID: c.id}, 5); got != c.want {
			t.Errorf("%s: SessionID = %s, want %s", c.name, got, c.want)
		}
	}
	x := spell.NewIDs(caps.IDs, &session.Meta{ID: u}, 5)
	if !x.Keeps("prt_e03a7a64affe0wHc2prdw2R2s7") || x.Keeps(u) {
		t.Errorf("OpenCode keeps an id of its form and no other: %v %v", x.Keeps("prt_e03a7a64affe0wHc2prdw2R2s7"), x.Keeps(u))
	}
}
