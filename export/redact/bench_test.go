package redact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// BenchmarkLargeSession redacts every line of the large pi sample in
// ../shared/samples, as text.
func BenchmarkLargeSession(b *testing.B) {
	shared := os.Getenv("SESSTOOL_SHARED")
	if shared == "" {
		shared = filepath.Join(peers.RepoRoot(), "..", "shared")
	}
	data, err := os.ReadFile(filepath.Join(shared, "samples", "pi", "pi-mono_large-session.v1.jsonl"))
	if err != nil {
		b.Skip(err)
	}
	lines := strings.Split(string(data), "\n")
	r := mustNew(b)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		for _, l := range lines {
			r.String(l)
		}
	}
}
