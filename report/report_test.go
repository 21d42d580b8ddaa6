package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestTextAndJSON(t *testing.T) {
	r := &Report{}
	r.Add(Finding{Path: "b.jsonl", Line: 2, Pointer: "/id", Severity: Error, Rule: "duplicate-id", Message: `id "x" already used on line 1`})
	r.Add(Finding{Path: "a.jsonl", Line: 9, Column: 4, Severity: Error, Rule: "json-syntax", Message: "invalid JSON"})
	r.Warnf("a.jsonl", 3, "", "orphan-tool-result", "no tool call %q", "c1")
	r.Counted("tree", 2, 10)
	var out, sum bytes.Buffer
	if err := r.WriteText(&out, &sum); err != nil {
		t.Fatal(err)
	}
	want := `a.jsonl:3: warning: no tool call "c1" (orphan-tool-result)
a.jsonl:9:4: error: invalid JSON (json-syntax)
b.jsonl:2: error: id "x" already used on line 1 at /id (duplicate-id)
`
	if out.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", out.String(), want)
	}
	if sum.String() != "2 files, 10 entries, 2 errors, 1 warnings\n" {
		t.Errorf("summary: %q", sum.String())
	}
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(js.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 4 NDJSON lines, got %d:\n%s", len(lines), js.String())
	}
	if lines[1] != `{"path":"a.jsonl","line":9,"column":4,"pointer":"","severity":"error","rule":"json-syntax","message":"invalid JSON"}` {
		t.Errorf("finding line: %s", lines[1])
	}
	if lines[3] != `{"summary":{"files":2,"entries":10,"errors":2,"warnings":1,"formats":{"tree":2}}}` {
		t.Errorf("summary line: %s", lines[3])
	}
}

func TestMaxErrorsKeepsCounting(t *testing.T) {
	r := &Report{MaxErrors: 2}
	for i := 0; i < 5; i++ {
		r.Errorf("f", i+1, "", "schema", "bad")
	}
	if len(r.Findings()) != 2 || r.Errors() != 5 {
		t.Errorf("kept %d findings, counted %d errors; want 2 and 5", len(r.Findings()), r.Errors())
	}
}
