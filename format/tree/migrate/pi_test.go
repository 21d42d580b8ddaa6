package migrate

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
)

// TestAgainstPi migrates real and synthetic sessions to v3 and opens the
// result with pi's own SessionManager: pi must not rewrite it (so it needs no
// migration of its own), and the LLM context pi builds from it must be the
// one pi builds when it migrates the original itself. v2 inputs include the
// v2 files our 1 -> 2 step derives from the real v1 samples (from the shared
// folder) and our 3 -> 2 step derives from the project's own v3 sample.
func TestAgainstPi(t *testing.T) {
	node := peers.Pi(t)
	dir := t.TempDir()
	real := shared.Samples(t, "pi/*.jsonl")
	inputs := append([]string{
		"testdata/v1-compaction.jsonl",
		"testdata/v1-compaction-header.jsonl",
		"testdata/v1-compaction-out-of-range.jsonl",
		"testdata/v1-crlf.jsonl",
		"testdata/v2-hook.jsonl",
	}, real...)
	// Derive a v2 file from each real v1 sample and from our own v3 sample.
	for _, in := range append(real, ownSample) {
		v2 := filepath.Join(dir, "derived-v2_"+filepath.Base(in))
		if _, err := testTree.Migrate(in, "2", format.MigrateOptions{Out: v2}); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, v2)
	}
	// Every input is migrated first, then pi opens the originals and our
	// v3 files in one node process (loading pi costs seconds of CPU).
	outs := map[string]string{} // input -> our v3 of it
	var files []string
	for i, in := range inputs {
		out := filepath.Join(dir, fmt.Sprintf("v3-%d.jsonl", i))
		if _, err := testTree.Migrate(in, "3", format.MigrateOptions{Out: out}); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		outs[in] = out
		files = append(files, in, out)
	}
	seen := peers.PiContexts(t, node, files)
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			want, got := seen[in], seen[outs[in]]
			if want.Error != "" || got.Error != "" {
				t.Fatalf("pi threw: on the original: %s; on our v3: %s", want.Error, got.Error)
			}
			if got.RewrittenByPi {
				t.Errorf("pi rewrote our v3 output (it needed a migration of its own)")
			}
			if got.Version != 3 || got.Digest != want.Digest || got.Entries != want.Entries || got.Messages != want.Messages {
				t.Errorf("pi on our v3: %+v\npi migrating the original itself: %+v", got, want)
			}
			if !want.RewrittenByPi {
				t.Errorf("pi did not have to migrate the original %s (is it really older than v3?)", in)
			}
			t.Logf("%s: %d entries, %d context messages, digest %s", filepath.Base(in), got.Entries, got.Messages, got.Digest)
		})
	}
}
