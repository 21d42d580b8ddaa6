package tree

import (
	"bytes"
	"errors"
	"hash/maphash"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/benchdata"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// Benchmarks of the tree layout's hot paths on 16 MB replicated from a real
// pi session; b.SetBytes makes them report MB/s of input.
const benchSize = 16 << 20

func BenchmarkValidateV3(b *testing.B) { benchValidate(b, true) }
func BenchmarkValidateV1(b *testing.B) { benchValidate(b, false) }

func benchValidate(b *testing.B, v3 bool) {
	in := benchdata.TreeBytes(b, benchSize, v3)
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

// BenchmarkMigrateV1toV3 is the whole migration of 16 MB of v1 (a dry run:
// nothing is written): the tree validator alongside the rewrite.
func BenchmarkMigrateV1toV3(b *testing.B) {
	in := benchdata.TreeBytes(b, benchSize, false)
	src := filepath.Join(b.TempDir(), "in.jsonl")
	if err := os.WriteFile(src, in, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Format{}).Migrate(src, "3", format.MigrateOptions{DryRun: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	in := benchdata.TreeBytes(b, benchSize, true)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := (Format{}).OpenReader("bench", bytes.NewReader(in))
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkWrite reads and writes back (encode + merge with the source bytes).
func BenchmarkWrite(b *testing.B) {
	in := benchdata.TreeBytes(b, benchSize, true)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := (Format{}).OpenReader("bench", bytes.NewReader(in))
		if err != nil {
			b.Fatal(err)
		}
		if err := (Format{}).WriteTo(io.Discard, r, format.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRules times the sequential rules alone (what one goroutine does
// for the whole file, however many workers parse): every line of the v3
// input handed to Check, already parsed as the engine hands it.
func BenchmarkRules(b *testing.B) {
	in := benchdata.TreeBytes(b, benchSize, true)
	var lines []validate.Line
	for i, l := range bytes.Split(bytes.TrimSuffix(in, []byte("\n")), []byte("\n")) {
		lines = append(lines, validate.Line{N: i + 1, Bytes: l, Value: gjson.ParseBytes(l), Valid: true})
	}
	schemas, err := compileSchemas(3)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		rep := &report.Report{}
		ru := &rules{path: "bench", rep: rep, schemas: schemas, version: 3, known: knownTypes(3), seed: maphash.MakeSeed()}
		for _, l := range lines {
			ru.Check(l)
		}
		ru.Finish()
		if rep.Errors() > 0 {
			b.Fatalf("%d errors: %v", rep.Errors(), rep.Findings()[0])
		}
	}
}
