package migrate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/shared"
)

// piContext is what ../shared/peers/pi-context.mjs prints: what pi's own
// SessionManager sees in a session file.
type piContext struct {
	Version       int            `json:"version"`
	Entries       int            `json:"entries"`
	RewrittenByPi bool           `json:"rewrittenByPi"`
	Messages      int            `json:"messages"`
	Roles         map[string]int `json:"roles"`
	Digest        string         `json:"digest"`
}

// peer returns the pi-context.mjs command, or skips (fails under
// SESSTOOL_REQUIRE_PEERS=1) when node or the peers are not installed.
func peer(t *testing.T) (node, script string) {
	t.Helper()
	missing := func(why string) {
		msg := "pi peer not available (" + why + "); run scripts/setup and set SESSTOOL_PEERS to check migrations against pi itself"
		if os.Getenv("SESSTOOL_REQUIRE_PEERS") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir := os.Getenv("SESSTOOL_PEERS")
	if dir == "" {
		missing("SESSTOOL_PEERS is not set")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not on PATH")
	}
	script = filepath.Join(dir, "pi-context.mjs")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@mariozechner", "pi-coding-agent")); err != nil {
		missing("no node_modules/@mariozechner/pi-coding-agent under " + dir)
	}
	if _, err := os.Stat(script); err != nil {
		missing(script + " is missing")
	}
	return node, script
}

func runPi(t *testing.T, node, script, path string) piContext {
	t.Helper()
	out, err := exec.Command(node, script, path).Output()
	if err != nil {
		t.Fatalf("pi-context %s: %v\n%s", path, err, out)
	}
	var c piContext
	if err := json.Unmarshal(out, &c); err != nil {
		t.Fatalf("pi-context %s: %v\n%s", path, err, out)
	}
	return c
}

// TestAgainstPi migrates real and synthetic sessions to v3 and opens the
// result with pi's own SessionManager: pi must not rewrite it (so it needs no
// migration of its own), and the LLM context pi builds from it must be the
// one pi builds when it migrates the original itself. v2 inputs include the
// v2 files our 1 -> 2 step derives from the real v1 samples (from the shared
// folder) and our 3 -> 2 step derives from the project's own v3 sample.
func TestAgainstPi(t *testing.T) {
	node, script := peer(t)
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
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			want := runPi(t, node, script, in)
			out := filepath.Join(t.TempDir(), "v3.jsonl")
			if _, err := testTree.Migrate(in, "3", format.MigrateOptions{Out: out}); err != nil {
				t.Fatal(err)
			}
			got := runPi(t, node, script, out)
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
