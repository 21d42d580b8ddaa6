package codex

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// TestReplyBounded: a reply of more items than a reply may gather is cut
// in pieces (memory stays bounded), and Codex -> Codex still gives the
// same bytes; a token_count repeated with the same total counts once.
func TestReplyBounded(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"timestamp":"2026-03-04T10:00:00.000Z","type":"session_meta","payload":{"id":"0195f0a0-0000-7000-8000-0000000000bb","timestamp":"2026-03-04T10:00:00.000Z","cwd":"/","cli_version":"0.130.0"}}` + "\n")
	n := groupMax + 10
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"timestamp":"2026-03-04T10:00:01.000Z","type":"response_item","payload":{"type":"function_call","name":"f","arguments":"{}","call_id":"c%d"}}`+"\n", i)
	}
	tc := `{"timestamp":"2026-03-04T10:00:02.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":2,"reasoning_output_tokens":0,"total_tokens":12},"last_token_usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":2,"reasoning_output_tokens":0,"total_tokens":12}}}}` + "\n"
	b.WriteString(tc + tc)
	r, err := Format{}.OpenReader("big", bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 2 {
		t.Fatalf("%d entries, want the reply cut in 2", len(s.Entries))
	}
	calls := 0
	for _, e := range s.Entries {
		calls += len(e.Message.Content)
	}
	if calls != n {
		t.Errorf("%d calls read, want %d", calls, n)
	}
	if u := s.Entries[1].Message.Usage; u == nil || u.Input != 6 || u.CacheRead != 4 || u.Output != 2 {
		t.Errorf("usage %+v, want the token_count once", u)
	}
	var out bytes.Buffer
	if err := (Format{}).WriteTo(&out, &session.SliceReader{S: s}, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), b.Bytes()) {
		t.Errorf("codex -> codex changed the rollout")
	}
}
