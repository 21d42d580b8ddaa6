package tree

import (
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/shared"
)

// ownSamples holds the tree sessions the project made itself (written by
// pi's own SessionManager, testdata/samples/tree/generator).
const ownSamples = "../../testdata/samples/tree"

// ownSampleFiles lists them.
func ownSampleFiles(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(ownSamples + "/*.jsonl")
	if len(files) == 0 {
		t.Fatalf("no tree samples in %s", ownSamples)
	}
	return files
}

// realSamples are pi's three real v1 sessions, from the shared folder; a
// test that needs them is skipped without it (fails under
// SESSTOOL_REQUIRE_PEERS=1).
func realSamples(t *testing.T) []string {
	t.Helper()
	return shared.Samples(t, "pi/*.jsonl")
}

// realSample is one of them by name.
func realSample(t *testing.T, name string) string {
	t.Helper()
	return shared.Sample(t, "pi/"+name)
}

// realSamplesIfThere lists the real samples when the shared folder has
// them, for tests that cover them beside files of their own; TestRealSamples
// turns their absence into a skip (a failure in CI).
func realSamplesIfThere() []string {
	files, _ := filepath.Glob(filepath.Join(shared.Dir(), "samples", "pi", "*.jsonl"))
	return files
}

func TestRealSamples(t *testing.T) {
	if n := len(realSamples(t)); n != 3 {
		t.Errorf("want the 3 pi samples, found %d", n)
	}
}
