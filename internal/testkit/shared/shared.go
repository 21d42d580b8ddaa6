// Package shared finds, for tests, the read-only material every developer
// and CI run has beside the project: $SESSTOOL_SHARED, else <repo>/../shared.
// Its samples/ holds real sessions copied from public repositories, which
// the project itself must not carry; a test that needs one and cannot find
// it is skipped, or fails under SESSTOOL_REQUIRE_PEERS=1 (CI), as a test
// that needs a peer program does.
package shared

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// Dir is the shared folder: $SESSTOOL_SHARED, else ../shared from the
// repository root (an absolute path either way).
func Dir() string {
	d := os.Getenv("SESSTOOL_SHARED")
	if d == "" {
		d = filepath.Join(peers.RepoRoot(), "..", "shared")
	}
	abs, err := filepath.Abs(d)
	if err != nil {
		return d
	}
	return abs
}

// Sample returns the absolute path of samples/rel in the shared folder, or
// skips t (fails it under SESSTOOL_REQUIRE_PEERS=1) when it is not there.
func Sample(t testing.TB, rel string) string {
	t.Helper()
	p, ok := Lookup(rel)
	if !ok {
		peers.Need(t, "shared sample "+p+" not found (set SESSTOOL_SHARED to the shared folder; scripts/test uses ../shared)")
	}
	return p
}

// Samples returns the shared samples matching the glob pattern rel, or skips
// t (fails it under SESSTOOL_REQUIRE_PEERS=1) when none match.
func Samples(t testing.TB, rel string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(Dir(), "samples", filepath.FromSlash(rel)))
	if len(m) == 0 {
		peers.Need(t, "no shared samples match "+filepath.Join(Dir(), "samples", rel)+" (set SESSTOOL_SHARED to the shared folder; scripts/test uses ../shared)")
	}
	return m
}

// Lookup returns the absolute path of samples/rel in the shared folder and
// whether it exists, for callers that cannot skip (a loop over rows).
func Lookup(rel string) (string, bool) {
	p := filepath.Join(Dir(), "samples", filepath.FromSlash(rel))
	_, err := os.Stat(p)
	return p, err == nil
}
