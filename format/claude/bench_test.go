package claude

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/benchdata"
	"github.com/sesstool/sesstool/report"
)

// BenchmarkValidate validates 16 MB replicated from a real Claude Code
// session (bench/run.sh validates 1 GB of the same); b.SetBytes makes it
// report MB/s of input.
func BenchmarkValidate(b *testing.B) {
	in := benchdata.ClaudeBytes(b, 16<<20)
	p := filepath.Join(b.TempDir(), "bench.jsonl")
	if err := os.WriteFile(p, in, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		rep := &report.Report{}
		if err := (Format{}).Validate(p, rep, format.ValidateOptions{}); err != nil {
			b.Fatal(err)
		}
		if rep.Errors() > 0 {
			b.Fatalf("%d errors: %v", rep.Errors(), rep.Findings()[0])
		}
	}
}
