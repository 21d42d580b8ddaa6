package codex

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// TestUserMessageEvent: a user_message event is read as the turn's user
// message when no user item came before it (a rollout that recorded the
// prompt only as the event, as Codex 0.128 did), and as the echo of the
// item otherwise; Codex shows one user message per event either way.
func TestUserMessageEvent(t *testing.T) {
	meta := `{"timestamp":"2026-03-04T10:00:00.000Z","type":"session_meta","payload":{"id":"0195f0a0-0000-7000-8000-0000000000cc","cwd":"/","cli_version":"0.128.0"}}`
	item := func(text string) string {
		return `{"timestamp":"2026-03-04T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"` + text + `"}]}}`
	}
	event := func(text string) string {
		return `{"timestamp":"2026-03-04T10:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"` + text + `","images":[]}}`
	}
	env := item("<environment_context><cwd>/</cwd></environment_context>")
	say := `{"timestamp":"2026-03-04T10:00:02.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}}`
	cases := []struct {
		name  string
		lines []string
		want  []string // the user messages read
	}{
		{"event only", []string{event("hi"), say, event("again"), say}, []string{"hi", "again"}},
		{"item and its echo", []string{item("hi"), event("hi"), say}, []string{"hi"}},
		{"echo spelt otherwise", []string{item("[REDACTED_TEXT]"), event("[REDACTED_MESSAGE]"), say}, []string{"[REDACTED_TEXT]"}},
		{"context item, then the event", []string{env, event("hi"), say}, []string{"hi"}},
		{"an item, then an event of its own", []string{item("one"), event("one"), say, event("two"), say}, []string{"one", "two"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := meta + "\n" + strings.Join(c.lines, "\n") + "\n"
			r, err := Format{}.OpenReader("s", strings.NewReader(src))
			if err != nil {
				t.Fatal(err)
			}
			s, err := session.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range s.Entries {
				if e.Kind == session.KindMessage && e.Message.Role == session.RoleUser {
					got = append(got, e.Message.Text())
				}
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("user messages %q, want %q", got, c.want)
			}
			var out bytes.Buffer
			if err := (Format{}).WriteTo(&out, &session.SliceReader{S: s}, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if out.String() != src {
				t.Errorf("codex -> codex changed the rollout")
			}
		})
	}
}
