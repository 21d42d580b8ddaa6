package opencode

import (
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/tidwall/gjson"
)

// Messages are ordered by time.created, then id: an id minted after the
// 2026-08-14 wrap (msg_0…) sorts before an older one (msg_f…) as a string,
// but comes after it in the conversation.
func TestMessageOrder(t *testing.T) {
	before := newID("msg", 1786706395000-1, 1, false, "a") // just before the wrap
	after := newID("msg", 1786706395000+5000, 1, false, "b")
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

// A second session of a run with an OpenCode session's id gets an id that
// OpenCode accepts and sorts where the first does: the same prefix and time
// part, another tail (format.Distincter).
func TestDistinctKeepsPrefixAndTime(t *testing.T) {
	var d format.Distincter = minter{}
	id := "ses_e03a7a64affe0wHc2prdw2R2s7"
	got := d.Distinct(id, 2)
	if got == id || !isID("ses", got) || got[:16] != id[:16] {
		t.Errorf("Distinct(%q, 2) = %q: want another ses_ id with the time part e03a7a64affe", id, got)
	}
	if again := d.Distinct(id, 2); again != got {
		t.Errorf("not deterministic: %q then %q", got, again)
	}
	if third := d.Distinct(id, 3); third == got {
		t.Errorf("the third copy gets the second's id %q", got)
	}
}
