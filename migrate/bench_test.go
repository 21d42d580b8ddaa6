package migrate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/benchdata"
)

// BenchmarkMigrateV1toV3 times the migration passes alone (no validator) on
// 16 MB of a real v1 session replicated: the id pre-pass and the rewrite.
func BenchmarkMigrateV1toV3(b *testing.B) {
	in := benchdata.TreeBytes(b, 16<<20, false)
	dir := b.TempDir()
	src := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(src, in, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Tree{}).Migrate(src, "3", format.MigrateOptions{DryRun: true}); err != nil {
			b.Fatal(err)
		}
	}
}
