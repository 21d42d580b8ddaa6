package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
)

// live2_1_332 is a session Claude Code 2.1.332 wrote (run offline against
// the mock model, then resumed once; long texts cut, the cwd renamed).
const live2_1_332 = "testdata/v2.1.332/cfd3ff15-25dc-4d03-9752-d694a73a1b88.jsonl"

func validateFindings(t *testing.T, path string) []report.Finding {
	t.Helper()
	rep := &report.Report{}
	if err := (Format{}).Validate(path, rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	return rep.Findings()
}

// The line types and members Claude Code 2.1.332 writes are known: its
// session validates with no finding at all.
func TestClaudeCode2_1_332Validates(t *testing.T) {
	for _, f := range validateFindings(t, live2_1_332) {
		t.Errorf("%s", f.Text())
	}
}

// Each new line type has a schema that checks its members: a line of the
// real session with one member broken is an error.
func TestClaudeCode2_1_332Schemas(t *testing.T) {
	raw, err := os.ReadFile(live2_1_332)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	cases := []struct{ typ, from, to string }{
		{"atis-latch", `"atis":""`, `"atis":1`},
		{"api-request-shape", `"shapeHash":"`, `"shapeHash":"x`},
		{"api-request-blob", `"message":{`, `"message":[{`},
		{"api-request", `"keep":`, `"keep":-`},
		{"tools-used", `"tools":["Bash"]`, `"tools":"Bash"`},
		{"cost-state", `"totalCostUSD":`, `"totalCostUSD":-`},
		{"mode", `"mode":"normal"`, `"mode":null`},
		{"assistant", `"apiBlockIndex":`, `"apiBlockIndex":"x",`},
		{"user", `"turnOrigin":"`, `"turnOrigin":1,"x":"`},
	}
	for _, c := range cases {
		t.Run(c.typ, func(t *testing.T) {
			out := append([]string(nil), lines...)
			n := -1
			for i, l := range out {
				if strings.Contains(l, `"type":"`+c.typ+`"`) {
					if strings.Contains(l, c.from) {
						out[i], n = strings.Replace(l, c.from, c.to, 1), i+1
						break
					}
				}
			}
			if n < 0 {
				t.Fatalf("no %s line holds %s", c.typ, c.from)
			}
			p := filepath.Join(t.TempDir(), filepath.Base(live2_1_332))
			if err := os.WriteFile(p, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var errs []string
			for _, f := range validateFindings(t, p) {
				if f.Severity == report.Error && f.Line == n {
					errs = append(errs, f.Text())
				}
			}
			if len(errs) == 0 {
				t.Errorf("line %d (%s) with %s: no error", n, c.typ, c.to)
			}
		})
	}
}
