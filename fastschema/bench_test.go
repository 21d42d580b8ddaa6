package fastschema_test

import (
	"bytes"
	"testing"

	"github.com/sesstool/sesstool/fastschema"
	"github.com/sesstool/sesstool/internal/testkit/benchdata"
	"github.com/sesstool/sesstool/schema"
)

// BenchmarkSyntax and BenchmarkValid run the fast path over 16 MB of tree
// JSONL v3 replicated from a real pi session, a line at a time, on one core;
// b.SetBytes makes them report MB/s of input.
func BenchmarkSyntax(b *testing.B) {
	lines := benchLines(b)
	for b.Loop() {
		for _, l := range lines {
			if !fastschema.Syntax(l) {
				b.Fatalf("refused: %.200s", l)
			}
		}
	}
}

func BenchmarkValid(b *testing.B) {
	lines := benchLines(b)
	v, err := schema.FastCompile("tree/v3/line.json")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, l := range lines {
			if !v.Valid(l) {
				b.Fatalf("refused: %.200s", l)
			}
		}
	}
}

func benchLines(b *testing.B) [][]byte {
	in := benchdata.TreeBytes(b, 16<<20, true)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	return bytes.Split(bytes.TrimSuffix(in, []byte("\n")), []byte("\n"))
}
