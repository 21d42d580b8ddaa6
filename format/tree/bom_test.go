package tree

import (
	"bytes"
	"os"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
)

// A tree file starting with a byte order mark is still a tree file, and its
// one finding is utf8-bom at 1:1, as for flat files.
func TestBOM(t *testing.T) {
	b, err := os.ReadFile(ownSamples + "/pi-v3-branches.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	b = append(append([]byte{}, format.BOM...), b...)
	if !(Format{}).DetectHead(b) {
		t.Fatal("a tree file with a byte order mark is not detected")
	}
	rep := &report.Report{}
	if err := (Format{}).ValidateReader("s.jsonl", bytes.NewReader(b), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	fs := rep.Findings()
	if len(fs) != 1 || fs[0].Rule != format.RuleBOM || fs[0].Line != 1 || fs[0].Column != 1 {
		t.Errorf("findings %v, want one utf8-bom at 1:1", fs)
	}
}
