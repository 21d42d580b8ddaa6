package codex

import (
	"bytes"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/benchdata"
	"github.com/sesstool/sesstool/report"
)

// BenchmarkValidate validates 16 MB replicated from a real Codex rollout
// (bench/run.sh validates 1 GB of the same); b.SetBytes makes it report
// MB/s of input.
func BenchmarkValidate(b *testing.B) {
	in := benchdata.CodexBytes(b, 16<<20)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		rep := &report.Report{}
		if err := (Format{}).ValidateReader("bench", bytes.NewReader(in), rep, format.ValidateOptions{}); err != nil {
			b.Fatal(err)
		}
		if rep.Errors() > 0 {
			b.Fatalf("%d errors: %v", rep.Errors(), rep.Findings()[0])
		}
	}
}
