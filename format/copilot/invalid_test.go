package copilot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
)

// Each invalid case's findings, one per line, are its golden file
// (golden/invalid/<case>.txt; -update rewrites them): the rules beyond the
// schema (missing-start, duplicate-start, duplicate-id, root-parent,
// broken-chain, dangling-parent, unknown-agent, ephemeral-event,
// unknown-event-type, unknown-tool-call) and the schema's own.
func TestInvalidGoldens(t *testing.T) {
	cases, _ := filepath.Glob("testdata/invalid/*.jsonl")
	if len(cases) == 0 {
		t.Fatal("no invalid cases")
	}
	for _, p := range cases {
		name := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		t.Run(name, func(t *testing.T) {
			rep := &report.Report{}
			if err := (Format{}).Validate(p, rep, format.ValidateOptions{}); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, f := range rep.Findings() {
				b.WriteString(f.Text() + "\n")
			}
			if rep.Errors()+rep.Warnings() == 0 {
				t.Errorf("%s: no findings", p)
			}
			golden := filepath.Join("golden", "invalid", name+".txt")
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if b.String() != string(want) {
				t.Errorf("findings differ from %s\n got:\n%s\nwant:\n%s", golden, b.String(), want)
			}
		})
	}
}
