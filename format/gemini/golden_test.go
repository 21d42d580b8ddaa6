package gemini_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/gemini"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/report"
)

// TestFindingGoldens: the findings for each case, validated with the
// layout forced (as --format gemini does). An invalid case has an error;
// a warn case (a redacted date, a rewind naming no message, a second
// metadata line) only warnings: a finding, never a refusal or a crash.
func TestFindingGoldens(t *testing.T) {
	for _, dir := range []string{"invalid", "warn"} {
		files, _ := filepath.Glob("testdata/" + dir + "/*.json*")
		if len(files) < 3 {
			t.Fatalf("only %d %s cases", len(files), dir)
		}
		for _, p := range files {
			t.Run(dir+"/"+filepath.Base(p), func(t *testing.T) {
				rep := &report.Report{}
				if err := (gemini.Format{}).Validate(p, rep, format.ValidateOptions{Workers: 1}); err != nil {
					t.Fatal(err)
				}
				if dir == "invalid" && rep.Errors() == 0 {
					t.Errorf("no error for an invalid case")
				}
				if dir == "warn" && (rep.Errors() != 0 || rep.Warnings() == 0) {
					t.Errorf("%d errors, %d warnings; want warnings only", rep.Errors(), rep.Warnings())
				}
				var b bytes.Buffer
				for _, f := range rep.Findings() {
					b.WriteString(f.Text() + "\n")
				}
				name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(p), ".jsonl"), ".json")
				golden.Assert(t, dir+"/"+name+".txt", b.Bytes())
			})
		}
	}
}
