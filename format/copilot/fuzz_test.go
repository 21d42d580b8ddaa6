package copilot_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/copilot"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
)

// seeds are Copilot logs of the project's own: what Copilot CLI 1.0.102
// wrote here, the samples sesstool made, and the invalid cases.
func seeds(t testing.TB) []string {
	m, _ := filepath.Glob("testdata/invalid/*.jsonl")
	return append([]string{
		"testdata/live/copilot-1.0.102.jsonl",
		"../../testdata/samples/copilot/tree.jsonl",
		"../../testdata/samples/copilot/home/session-state/1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f9/events.jsonl",
	}, m...)
}

// FuzzCopilot: the copilot reader and validator never panic, an accepted
// log reads without error, and converts to a valid session in the layout
// the input picks.
func FuzzCopilot(f *testing.F) {
	for _, p := range seeds(f) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "events.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fuzzcheck.CheckOne(t, copilot.Format{}, p, data)
		fuzzcheck.CheckStream(t, copilot.Format{}, data)
	})
}

// TestSeedsConvertEverywhere: every seed that validates converts to a
// valid session in every layout.
func TestSeedsConvertEverywhere(t *testing.T) {
	for _, p := range seeds(t) {
		fuzzcheck.Check(t, copilot.Format{}, p)
	}
}
