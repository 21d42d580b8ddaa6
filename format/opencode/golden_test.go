package opencode

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/cleanup"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/report"
)

// validateCases lists every sample layout and every invalid case.
func validateCases(t *testing.T) []string {
	var cases []string
	for _, glob := range []string{"testdata/samples/*", "testdata/samples/sqlite/*.db", "testdata/samples/export/*.json", "testdata/invalid/*", "testdata/invalid/export/*.json", "testdata/invalid/sqlite/*.db"} {
		m, _ := filepath.Glob(glob)
		for _, p := range m {
			if l, _ := classify(p); l != layoutNone {
				cases = append(cases, p)
			}
		}
	}
	sort.Strings(cases)
	if len(cases) < 25 {
		t.Fatalf("only %d cases", len(cases))
	}
	return cases
}

// Validate's text and JSON output over every layout's samples (which must be
// free of errors) and over one invalid case per rule (which must hit it).
func TestValidateGolden(t *testing.T) {
	for _, p := range validateCases(t) {
		name := strings.TrimPrefix(strings.ReplaceAll(strings.TrimPrefix(p, "testdata/"), "/", "__"), "")
		t.Run(name, func(t *testing.T) {
			rep := &report.Report{}
			var f format.Format = Format{}
			if (Export{}).Detect(p) {
				f = Export{}
			}
			if err := f.Validate(p, rep, format.ValidateOptions{}); err != nil {
				t.Fatal(err)
			}
			var text, js bytes.Buffer
			rep.WriteText(&text, &text)
			rep.WriteJSON(&js)
			golden.Assert(t, "validate/"+name+".txt", text.Bytes())
			golden.Assert(t, "validate/"+name+".json", js.Bytes())
			if strings.HasPrefix(p, "testdata/samples/") && rep.Errors() > 0 {
				t.Errorf("sample has %d errors", rep.Errors())
			}
			if rule := filepath.Base(p); strings.HasPrefix(p, "testdata/invalid/") && !strings.Contains(rule, ".") && rule != "export" && rule != "sqlite" {
				hit := false
				for _, f := range rep.Findings() {
					hit = hit || f.Rule == rule
				}
				if !hit {
					t.Errorf("case %s does not report rule %s: %+v", p, rule, rep.Findings())
				}
			}
		})
	}
}

// TestMain removes the private copies of databases with a write-ahead log
// the tests read, as the end of a run does.
func TestMain(m *testing.M) {
	code := m.Run()
	cleanup.RunAtExit()
	os.Exit(code)
}
