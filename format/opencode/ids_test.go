package opencode

import (
	"github.com/tidwall/gjson"
	"testing"
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
