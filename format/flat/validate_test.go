package flat

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/report"
)

const samples = "../../testdata/samples/flat"

// validateFile runs Validate on one file and renders the text and NDJSON
// outputs the CLI would print (text findings, summary, then JSON).
func validateFile(t *testing.T, path string) (*report.Report, []byte) {
	t.Helper()
	rep := &report.Report{}
	if err := New().Validate(path, rep, format.ValidateOptions{Workers: 2}); err != nil {
		t.Fatalf("validate %s: %v", path, err)
	}
	var out bytes.Buffer
	out.WriteString("# text\n")
	if err := rep.WriteText(&out, &out); err != nil {
		t.Fatal(err)
	}
	out.WriteString("# json\n")
	if err := rep.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	return rep, out.Bytes()
}

func TestValidateSamples(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(samples, "*.jsonl"))
	if len(files) != 2 {
		t.Fatalf("want 2 flat samples, found %d", len(files))
	}
	files = append(files, "testdata/invalid/fork-parent.jsonl")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			rep, out := validateFile(t, f)
			if rep.Errors() != 0 || rep.Warnings() != 0 {
				t.Errorf("%s: want no findings, got:\n%s", f, out)
			}
			golden.Assert(t, "valid/"+strings.TrimSuffix(filepath.Base(f), ".jsonl")+".txt", out)
		})
	}
}

// TestValidateInvalid has one case per rule: each file breaks exactly one
// rule, which must be reported at the right line with the right severity.
func TestValidateInvalid(t *testing.T) {
	cases := []struct {
		file string
		rule string
		line int
		sev  report.Severity
	}{
		{"missing-header", "missing-header", 1, report.Error},
		{"empty", "missing-header", 0, report.Error},
		{"duplicate-header", "duplicate-header", 3, report.Error},
		{"unknown-version", "unknown-version", 1, report.Error},
		{"duplicate-id", "duplicate-id", 3, report.Error},
		{"root-parent", "root-parent", 2, report.Error},
		{"dangling-parent", "dangling-parent", 3, report.Error},
		{"role-mismatch", "role-mismatch", 2, report.Error},
		{"unknown-tool-call", "unknown-tool-call", 4, report.Error},
		{"dangling-first-kept", "dangling-first-kept", 5, report.Error},
		{"dangling-fork-entry", "dangling-fork-entry", 2, report.Error},
		{"parent-unavailable", "parent-unavailable", 2, report.Warning},
		{"misplaced-branch", "misplaced-branch", 3, report.Warning},
		{"unknown-type", "unknown-type", 3, report.Warning},
		{"schema", "schema", 3, report.Error},
		{"json-syntax", "json-syntax", 3, report.Error},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := "testdata/invalid/" + c.file + ".jsonl"
			rep, out := validateFile(t, path)
			golden.Assert(t, "invalid/"+c.file+".txt", out)
			found := false
			for _, f := range rep.Findings() {
				if f.Rule != c.rule {
					t.Errorf("unexpected finding (each case breaks one rule): %s", f.Text())
					continue
				}
				if f.Path != path || f.Line != c.line || f.Severity != c.sev {
					t.Errorf("want %s at %s:%d (%s), got %s", c.rule, path, c.line, c.sev, f.Text())
				}
				found = true
			}
			if !found {
				t.Errorf("%s: rule %s not reported; output:\n%s", path, c.rule, out)
			}
			if c.sev == report.Warning && rep.Errors() != 0 {
				t.Errorf("a %s warning alone must leave no errors (exit 0)", c.rule)
			}
		})
	}
}

// The parent of a fork is looked up at its recorded path first, then next
// to the file; from standard input only the recorded path can be tried.
func TestValidateForkFromStdin(t *testing.T) {
	b := readFile(t, filepath.Join(samples, "20261121-042425-a1bea1d6.jsonl"))
	rep := &report.Report{}
	if err := New().ValidateReader("<stdin>", bytes.NewReader(b), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	fs := rep.Findings()
	if len(fs) != 1 || fs[0].Rule != "parent-unavailable" || fs[0].Line != 2 || rep.Errors() != 0 {
		t.Fatalf("want one parent-unavailable warning on line 2, got %v", fs)
	}
}
