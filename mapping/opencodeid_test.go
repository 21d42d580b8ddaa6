package mapping

import (
	"strings"
	"testing"
)

// The generator matches OpenCode's id.ts on the values the research checked.
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
		got := OpenCodeID(c.prefix, c.ms, c.ctr, c.desc, "seed")
		if got[:len(c.want)] != c.want || !IsOpenCodeID(c.prefix, got) {
			t.Errorf("OpenCodeID(%d,%d) = %s, want prefix %s", c.ms, c.ctr, got, c.want)
		}
	}
	for id, ok := range map[string]bool{
		"msg_1fc5859d7001oXixmkaPH5k0Xd": true,
		"msg_1fc5859d7001oXixmkaPH5k0X":  false,
		"msg_1fc5859d700GoXixmkaPH5k0Xd": false,
		"prt_1fc5859d7001oXixmkaPH5k0Xd": false,
		"msg_1fc5859d7001oXixmkaPH5k0X-": false,
	} {
		if IsOpenCodeID("msg", id) != ok {
			t.Errorf("IsOpenCodeID(%s) != %v", id, ok)
		}
	}
	var g Ascending
	a, b := g.Next("prt", 100, "a"), g.Next("prt", 100, "b")
	if !(a[:16] < b[:16]) {
		t.Errorf("ids not ascending: %s %s", a, b)
	}
}

// IsOpenCodeID's byte table says what the character lists of id.ts say, for every
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
			if got, want := IsOpenCodeID("msg", string(b)), ref(string(b)); got != want {
				t.Errorf("IsOpenCodeID(%q) = %v, want %v", b, got, want)
			}
		}
	}
}
