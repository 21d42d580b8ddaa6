package tree

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/report"
)

// want says what one invalid case must report: the rule, the line it names,
// its severity, and so whether validate exits 1 (an error) or 0.
type want struct {
	rule string
	line int
	sev  report.Severity
}

var invalidCases = map[string]want{
	"missing-header.jsonl":        {"missing-header", 1, report.Error},
	"duplicate-header.jsonl":      {"duplicate-header", 3, report.Error},
	"unknown-version.jsonl":       {"unknown-version", 1, report.Error},
	"missing-id.jsonl":            {"missing-id", 3, report.Error},
	"unexpected-id.jsonl":         {"unexpected-id", 3, report.Error},
	"duplicate-id.jsonl":          {"duplicate-id", 4, report.Error},
	"dangling-parent.jsonl":       {"dangling-parent", 3, report.Error},
	"dangling-reference.jsonl":    {"dangling-reference", 3, report.Error},
	"dangling-reference-v1.jsonl": {"dangling-reference", 3, report.Error},
	"cycle.jsonl":                 {"cycle", 3, report.Error},
	"orphan-tool-result.jsonl":    {"orphan-tool-result", 4, report.Warning},
	"bad-timestamp.jsonl":         {"bad-timestamp", 2, report.Error},
	"unknown-entry-type.jsonl":    {"unknown-entry-type", 3, report.Warning},
	"json-syntax.jsonl":           {"json-syntax", 3, report.Error},
	"invalid-utf8.jsonl":          {"invalid-utf8", 2, report.Error},
	"torn-line.jsonl":             {"torn-line", 3, report.Error},
	"schema.jsonl":                {"schema", 3, report.Error},
	"blank-line.jsonl":            {"blank-line", 2, report.Warning},
	"empty.jsonl":                 {"missing-header", 0, report.Error},
}

func validateFile(t *testing.T, path string) *report.Report {
	t.Helper()
	rep := &report.Report{}
	if err := (Format{}).Validate(path, rep, format.ValidateOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	return rep
}

func goldenOutputs(t *testing.T, name string, rep *report.Report) {
	t.Helper()
	var text, js bytes.Buffer
	if err := rep.WriteText(&text, &text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, name+".txt", text.Bytes())
	golden.Assert(t, name+".json", js.Bytes())
}

// Every invalid case names its rule on its line, with the right severity,
// and the text and JSON outputs match the golden files.
func TestValidateInvalid(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.jsonl")
	if len(files) != len(invalidCases) {
		t.Fatalf("%d invalid files, %d expectations", len(files), len(invalidCases))
	}
	for _, f := range files {
		name := filepath.Base(f)
		w, ok := invalidCases[name]
		if !ok {
			t.Fatalf("no expectation for %s", name)
		}
		t.Run(name, func(t *testing.T) {
			rep := validateFile(t, f)
			found := false
			for _, fd := range rep.Findings() {
				if fd.Rule == w.rule && fd.Line == w.line && fd.Severity == w.sev {
					found = true
				}
				if fd.Path != f || fd.Message == "" {
					t.Errorf("finding without path or message: %+v", fd)
				}
			}
			if !found {
				t.Errorf("no %s %s on line %d; got %+v", w.sev, w.rule, w.line, rep.Findings())
			}
			if exitsOne := rep.Errors() > 0; exitsOne != (w.sev == report.Error) {
				t.Errorf("errors=%d, but the case is a %s", rep.Errors(), w.sev)
			}
			goldenOutputs(t, "invalid/"+strings.TrimSuffix(name, ".jsonl"), rep)
		})
	}
}

// Every valid file, the samples included, has no finding at all.
func TestValidateValid(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.jsonl")
	files = append(files, ownSampleFiles(t)...)
	files = append(files, realSamplesIfThere()...)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			rep := validateFile(t, f)
			if n := len(rep.Findings()); n != 0 {
				t.Fatalf("%d findings, first: %s", n, rep.Findings()[0].Text())
			}
			if s := rep.Summary(); s.Files != 1 || s.Entries == 0 || s.Formats["tree"] != 1 {
				t.Fatalf("summary %+v", s)
			}
			goldenOutputs(t, "valid/"+strings.TrimSuffix(filepath.Base(f), ".jsonl"), rep)
		})
	}
}

// Samples converted to v3 (ids spliced in) validate too, with the v3 rules.
func TestValidateUpgradedSamples(t *testing.T) {
	for _, f := range realSamples(t) {
		b, _ := os.ReadFile(f)
		rep := &report.Report{}
		if err := (Format{}).ValidateReader(f, bytes.NewReader(upgradeV1(t, b)), rep, format.ValidateOptions{}); err != nil {
			t.Fatal(err)
		}
		if n := len(rep.Findings()); n != 0 {
			t.Fatalf("%s as v3: %d findings, first: %s", f, n, rep.Findings()[0].Text())
		}
	}
}

// ajv, a standard validator, accepts every valid file with the schema folder
// as it is, and rejects the schema case.
func TestAjv(t *testing.T) {
	peers.Scripts(t) // skips without node and ajv
	tmp := t.TempDir()
	type run struct {
		dir, file string
		ok        bool
	}
	var runs []run
	for _, f := range []string{"v3_all", "v3_omp"} {
		runs = append(runs, run{"v3", "testdata/valid/" + f + ".jsonl", true})
	}
	runs = append(runs, run{"v2", "testdata/valid/v2_hook.jsonl", true},
		run{"v3", "testdata/invalid/schema.jsonl", false})
	for _, f := range ownSampleFiles(t) {
		runs = append(runs, run{"v3", f, true})
	}
	for i, f := range realSamplesIfThere() {
		runs = append(runs, run{"v1", f, true})
		b, _ := os.ReadFile(f)
		up := filepath.Join(tmp, filepath.Base(f)+".v3.jsonl")
		if err := os.WriteFile(up, upgradeV1(t, b), 0o644); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, run{"v3", up, true})
		_ = i
	}
	// One ajv process per schema version, for all of its files.
	byDir := map[string][]string{}
	for _, r := range runs {
		byDir[r.dir] = append(byDir[r.dir], r.file)
	}
	got := map[string]map[string]peers.AjvCount{}
	for d, files := range byDir {
		dir := filepath.Join("..", "..", "schema", "tree", d)
		got[d] = peers.AjvFiles(t, dir, filepath.Join(dir, "line.json"), files)
	}
	for _, r := range runs {
		n := got[r.dir][r.file]
		if ok := n.Lines > 0 && n.Invalid == 0; ok != r.ok {
			t.Errorf("ajv %s on %s: %+v, want ok=%v", r.dir, r.file, n, r.ok)
		}
		t.Logf("ajv %s %s: %d lines, %d invalid", r.dir, filepath.Base(r.file), n.Lines, n.Invalid)
	}
}
