package opencode

import (
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/benchdata"
	"github.com/sesstool/sesstool/report"
)

// benchStore writes a storage tree of 2,000 messages and 10,000 parts
// replicated from the repository's OpenCode sample; it returns the storage
// root and its size in bytes.
func benchStore(b *testing.B) (string, int64) {
	b.Helper()
	dir := b.TempDir()
	sample := filepath.Join(benchdata.Root(b), "testdata/samples/opencode/xdg/opencode/storage")
	if err := benchdata.OpenCode(sample, dir, 2000, 10000); err != nil {
		b.Fatal(err)
	}
	out, err := exec.Command("du", "-sb", filepath.Join(dir, "storage")).Output()
	if err != nil {
		b.Skip("du:", err)
	}
	var n int64
	for _, c := range out {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int64(c-'0')
	}
	return filepath.Join(dir, "storage"), n
}

// BenchmarkRead opens every session of the store and reads it to the end.
func BenchmarkRead(b *testing.B) {
	root, size := benchStore(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		refs, err := (Format{}).Sessions(root)
		if err != nil {
			b.Fatal(err)
		}
		for _, ref := range refs {
			r, err := (Format{}).Open(ref)
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
			r.Close()
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	root, size := benchStore(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		rep := &report.Report{}
		if err := (Format{}).Validate(root, rep, format.ValidateOptions{}); err != nil {
			b.Fatal(err)
		}
		if rep.Errors() > 0 {
			b.Fatal(rep.Findings()[0])
		}
	}
}
