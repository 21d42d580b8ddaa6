package qwen

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
)

var update = flag.Bool("update", false, "rewrite the goldens")

// The findings for each invalid case, as validate words them.
func TestInvalidGoldens(t *testing.T) {
	cases, _ := filepath.Glob("testdata/invalid/*.jsonl")
	if len(cases) == 0 {
		t.Fatal("no invalid cases")
	}
	for _, c := range cases {
		rep := &report.Report{}
		if err := (Format{}).Validate(c, rep, format.ValidateOptions{}); err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		if err := rep.WriteText(&sb, &sb); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("golden", "invalid", strings.TrimSuffix(filepath.Base(c), ".jsonl")+".txt")
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, []byte(sb.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(string(want), sb.String()); d != "" {
			t.Errorf("%s (-want +got):\n%s", c, d)
		}
	}
}
