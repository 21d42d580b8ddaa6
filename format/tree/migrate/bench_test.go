package migrate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/benchdata"
	"github.com/sesstool/sesstool/report"
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

// BenchmarkRewriteV1toV3 times what migrate adds to validation: the rewrite
// alone, trusting a validator (here one that finds nothing) for JSON syntax,
// with ids derived as it goes. format/tree's BenchmarkMigrateV1toV3 times
// the whole migration with the tree validator alongside.
func BenchmarkRewriteV1toV3(b *testing.B) {
	in := benchdata.TreeBytes(b, 16<<20, false)
	dir := b.TempDir()
	src := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(src, in, 0o644); err != nil {
		b.Fatal(err)
	}
	trusting := Tree{Validate: func(string, *report.Report) error { return nil }}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := trusting.Migrate(src, "3", format.MigrateOptions{DryRun: true}); err != nil {
			b.Fatal(err)
		}
	}
}
