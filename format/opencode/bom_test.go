package opencode

import (
	"os"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
)

// An export document starting with a byte order mark is detected as one, and
// its finding is utf8-bom at 1:1, not a syntax error at an invisible 'ï'.
func TestExportBOM(t *testing.T) {
	b, err := os.ReadFile("testdata/samples/export/v1.1.34__ses_e03a7a64affe0wHc2prdw2R2s7.json")
	if err != nil {
		t.Fatal(err)
	}
	b = append(append([]byte{}, format.BOM...), b...)
	if !(Export{}).DetectHead(b) {
		t.Fatal("an export with a byte order mark is not detected")
	}
	rep := &report.Report{}
	validateExport("e.json", b, rep)
	fs := rep.Findings()
	if len(fs) != 1 || fs[0].Rule != format.RuleBOM || fs[0].Line != 1 || fs[0].Column != 1 {
		t.Errorf("findings %v, want one utf8-bom at 1:1", fs)
	}
}
