package oracle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// Gemini CLI 0.61.0 resuming a legacy session-*.json writes the
// session-*.jsonl beside it; the lines it writes before the resumed turn
// are byte for byte what `sesstool migrate` writes for that document.
func TestGeminiMigratesAsSesstool(t *testing.T) {
	env := newGeminiEnv(t)
	folder := filepath.Join(env.geminiHome, "tmp", "work")
	chats := filepath.Join(folder, "chats")
	if err := os.MkdirAll(chats, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, ".project_root"), []byte(env.work), 0o644); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(peers.RepoRoot(), "testdata", "samples", "gemini", "legacy.json")
	doc := filepath.Join(chats, "session-2026-01-10T08-00-8e2f4a6c.json")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, b, 0o644); err != nil {
		t.Fatal(err)
	}
	want := sesstool(t, "migrate", "-o", "-", doc)
	if n := strings.Count(want, "\n"); n != 6 {
		t.Fatalf("sesstool migrate wrote %d lines, want 6 (metadata, 3 messages, scratchpad, sessionId):\n%s", n, want)
	}
	env.run(t, "--resume", "8e2f4a6c-1b3d-4f5e-8a7b-9c0d1e2f3a4b", "-p", "continue", "--yolo")
	got := readFile(t, doc+"l")
	if !strings.HasPrefix(got, want) {
		t.Errorf("Gemini CLI's .jsonl does not start with sesstool's migration:\ngemini:\n%.3000s\nsesstool:\n%s", got, want)
	}
	if now := readFile(t, doc); now != string(b) {
		t.Errorf("Gemini CLI changed the .json")
	}
}
