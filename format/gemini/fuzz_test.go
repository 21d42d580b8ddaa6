package gemini_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/gemini"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
)

// seeds are the samples: FuzzGemini's seeds, and the inputs
// TestSeedsConvertEverywhere converts to every layout.
func seeds(t testing.TB) [][]byte {
	paths, _ := filepath.Glob(samples + "*.json*")
	home, _ := filepath.Glob(samples + "home/.gemini/tmp/*/chats/*.jsonl")
	var out [][]byte
	for _, p := range append(paths, home...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	if len(out) < 4 {
		t.Fatalf("only %d seeds", len(out))
	}
	return out
}

func sessionFile(t testing.TB, data []byte) string {
	p := filepath.Join(t.TempDir(), "session-x.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// FuzzGemini: the Gemini CLI reader and validator never panic, an
// accepted session reads without error, from a file and from a stream,
// and converts to a valid session in the layout the input picks.
func FuzzGemini(f *testing.F) {
	for _, b := range seeds(f) {
		f.Add(b)
	}
	p := fuzzcheck.Reused(f, "session-x.jsonl")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Rewrite(t, p, data)
		fuzzcheck.CheckOne(t, gemini.Format{}, p, data)
		fuzzcheck.CheckStream(t, gemini.Format{}, data)
	})
}

// TestSeedsConvertEverywhere: every seed that validates converts to a
// valid session in every layout.
func TestSeedsConvertEverywhere(t *testing.T) {
	for _, b := range seeds(t) {
		fuzzcheck.Check(t, gemini.Format{}, sessionFile(t, b))
	}
}
