package codex

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// liveFixture is a rollout Codex CLI 0.171.0 wrote (codex exec, offline
// against the project's mock model): one prompt, a reply that reasons,
// says a text and runs a shell command, and a final reply.
const liveFixture = "testdata/live/codex-0.171.0.jsonl"

// TestLive0171 reads Codex 0.171.0's own rollout as Codex does: its
// item_completed events and token_usage_record lines sit among a reply's
// items without cutting it, its usage is each response's record, and its
// <environment_context> user item is Codex's, not a prompt. Each row is
// one of the symptoms the reader had on this file.
func TestLive0171(t *testing.T) {
	s := readFile(t, liveFixture)
	roles := map[session.Role]int{}
	var replies []*session.Message
	var in, out int64
	for _, e := range s.Entries {
		if e.Kind != session.KindMessage {
			continue
		}
		roles[e.Message.Role]++
		if e.Message.Role == session.RoleAssistant {
			replies = append(replies, e.Message)
		}
		if u := e.Message.Usage; u != nil {
			in += u.Input
			out += u.Output
		}
	}
	kinds := func(m *session.Message) string {
		var k []string
		for _, b := range m.Content {
			k = append(k, string(b.Type))
		}
		return strings.Join(k, ",")
	}
	cases := []struct {
		what      string
		got, want any
	}{
		{"user messages (the <environment_context> item is Codex's own)", roles[session.RoleUser], 1},
		{"assistant messages (item_completed does not cut a reply)", roles[session.RoleAssistant], 2},
		{"tool results", roles[session.RoleTool], 1},
		{"the first reply's blocks (reasoning, text and call in one message)", kinds(replies[0]), "thinking,text,tool_call"},
		{"input tokens (the token_usage_record lines)", in, int64(200)},
		{"output tokens", out, int64(40)},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.what, c.got, c.want)
		}
	}
	// It validates clean: its new members and line types are described.
	rep := &report.Report{}
	if err := (Format{}).Validate(liveFixture, rep, format.ValidateOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if fs := rep.Findings(); len(fs) != 0 {
		t.Errorf("validate: %v", fs)
	}
	// Codex -> Codex still gives back the file byte for byte.
	raw, _ := os.ReadFile(liveFixture)
	var b bytes.Buffer
	if err := (Format{}).WriteTo(&b, &session.SliceReader{S: s}, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), raw) {
		t.Errorf("codex -> codex changed Codex 0.171.0's rollout")
	}
}

func readFile(t *testing.T, path string) *session.Session {
	t.Helper()
	r, err := Format{}.Open(format.Ref{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
