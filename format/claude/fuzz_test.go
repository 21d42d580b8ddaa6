package claude_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/claude"
	"github.com/sesstool/sesstool/internal/fuzzcheck"
)

// FuzzClaude: the Claude Code reader and validator never panic, an
// accepted session reads without error, and converts to a valid session
// in every layout.
func FuzzClaude(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/samples/claude/store/projects/*/*.jsonl")
	seeds = append(seeds, "testdata/invalid/bad.jsonl")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "0a1b2c3d-0000-4000-8000-000000000000.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fuzzcheck.Check(t, claude.Format{}, p)
	})
}
