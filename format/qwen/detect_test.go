package qwen_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/claude"
	"github.com/sesstool/sesstool/format/qwen"
	"github.com/sesstool/sesstool/registry"
)

// A Qwen Code session has Claude Code's envelope around Gemini's
// messages: it is Qwen Code's, never Claude Code's, and a Claude Code
// session is still Claude Code's. Both layouts judge the same files, and
// detection over the registry picks the one that claims it.
func TestDetectQwenNotClaude(t *testing.T) {
	samples := filepath.Join("..", "..", "testdata", "samples")
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	env := `"uuid":"00000000-0000-4000-8000-000000000001","parentUuid":null,"sessionId":"5d0c6a4e-3b7e-4f38-9a51-2f8d0c1e7a10","timestamp":"2026-11-28T10:00:00.000Z","cwd":"/w","version":"0.24.4"`
	for _, c := range []struct {
		name         string
		path         string
		qwen, claude bool
	}{
		{"live session of Qwen Code 0.24.4", filepath.Join(samples, "qwen", "live-0.24.4.jsonl"), true, false},
		{"hand-made session with every record kind", filepath.Join(samples, "qwen", "features.jsonl"), true, false},
		{"Claude Code session", filepath.Join(samples, "claude", "store", "projects", "-home-dev-app", "1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f9.jsonl"), false, true},
		{"Claude Code store", filepath.Join(samples, "claude", "store"), false, true},
		{"a user line with Gemini parts", write("user.jsonl", `{`+env+`,"type":"user","message":{"role":"user","parts":[{"text":"hi"}]}}`+"\n"), true, false},
		{"a system line first, the message after", write("system.jsonl", `{`+env+`,"type":"system","subtype":"parent_session","systemPayload":{"parentSessionId":"p"}}`+"\n"), true, false},
		{"a Claude Code user line", write("claude.jsonl", `{`+env+`,"type":"user","message":{"role":"user","content":"hi"}}`+"\n"), false, true},
		{"no envelope", write("other.jsonl", `{"type":"user","message":{"role":"user","parts":[{"text":"hi"}]}}`+"\n"), false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := (qwen.Format{}).Detect(c.path); got != c.qwen {
				t.Errorf("qwen.Detect = %v, want %v", got, c.qwen)
			}
			if got := (claude.Format{}).Detect(c.path); got != c.claude {
				t.Errorf("claude.Detect = %v, want %v", got, c.claude)
			}
			want := ""
			switch {
			case c.qwen:
				want = qwen.Name
			case c.claude:
				want = claude.Name
			}
			got := ""
			for _, f := range registry.All {
				if f.Detect(c.path) {
					got = f.Name()
					break
				}
			}
			if got != want {
				t.Errorf("detected as %q, want %q", got, want)
			}
		})
	}
}
