package claude_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/claude"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
)

// seeds are the samples and a minimal session: FuzzClaude's seeds, and
// the inputs TestSeedsConvertEverywhere converts to every layout.
func seeds(t testing.TB) [][]byte {
	paths, _ := filepath.Glob("../../testdata/samples/claude/store/projects/*/*.jsonl")
	paths = append(paths, "testdata/invalid/bad.jsonl")
	var out [][]byte
	for _, s := range paths {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return append(out, []byte(`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}`+"\n"))
}

// sessionFile writes data where a Claude Code transcript is found.
func sessionFile(t testing.TB, data []byte) string {
	p := filepath.Join(t.TempDir(), "0a1b2c3d-0000-4000-8000-000000000000.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// FuzzClaude: the Claude Code reader and validator never panic, an
// accepted session reads without error, and converts to a valid session
// in the layout the input picks (one conversion an input, so the target
// runs hundreds of inputs a second; every layout: the seeded test below).
func FuzzClaude(f *testing.F) {
	for _, b := range seeds(f) {
		f.Add(b)
	}
	p := fuzzcheck.Reused(f, "0a1b2c3d-0000-4000-8000-000000000000.jsonl")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Rewrite(t, p, data)
		fuzzcheck.CheckOne(t, claude.Format{}, p, data)
	})
}

// TestSeedsConvertEverywhere: every seed that validates converts to a
// valid session in every layout.
func TestSeedsConvertEverywhere(t *testing.T) {
	for _, b := range seeds(t) {
		fuzzcheck.Check(t, claude.Format{}, sessionFile(t, b))
	}
}
