package tree

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
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

// TestOwnSampleIsPis runs the generator of the project's own sample with
// pi's SessionManager and requires the committed bytes: the sample is what
// pi writes, not a hand-made imitation.
func TestOwnSampleIsPis(t *testing.T) {
	node, dir := peers.Scripts(t)
	out := filepath.Join(t.TempDir(), "pi.jsonl")
	cmd := exec.Command(node, "../../testdata/samples/tree/generator/gen.mjs", out)
	cmd.Env = append(os.Environ(), "SESSTOOL_PEERS="+dir)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen.mjs: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(ownSamples + "/pi-v3-branches.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("pi's SessionManager wrote %d bytes, the committed sample has %d: run the generator again", len(got), len(want))
	}
}
