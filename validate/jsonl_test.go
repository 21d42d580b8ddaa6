package validate

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/report"
	"github.com/tidwall/gjson"
)

// recorder is a Rules that requires objects with an integer n and records
// the order lines reach Check in.
type recorder struct {
	sch      *jsonschema.Schema
	seen     []int
	finished bool
}

func (r *recorder) Schema(gjson.Result) *jsonschema.Schema { return r.sch }
func (r *recorder) Check(l Line)                           { r.seen = append(r.seen, l.N) }
func (r *recorder) Finish()                                { r.finished = true }

func newRecorder(t *testing.T) *recorder {
	c := jsonschema.NewCompiler()
	doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"type":"object","required":["n"],"properties":{"n":{"type":"integer","minimum":0}}}`))
	if err := c.AddResource("mem://t.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem://t.json")
	if err != nil {
		t.Fatal(err)
	}
	return &recorder{sch: s}
}

func TestOrderAcrossWorkers(t *testing.T) {
	var in bytes.Buffer
	const n = 5000 // several batches
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&in, "{\"n\":%d}\n", i)
	}
	for _, workers := range []int{1, 2, 7} {
		rec := newRecorder(t)
		rep := &report.Report{}
		count, err := (&JSONL{Path: "x", Rules: rec, Report: rep, Workers: workers}).Run(&in)
		if err != nil || count != n || !rec.finished || rep.Errors() != 0 {
			t.Fatalf("workers %d: count %d err %v finished %v errors %d", workers, count, err, rec.finished, rep.Errors())
		}
		for i, got := range rec.seen {
			if got != i+1 {
				t.Fatalf("workers %d: line %d delivered at position %d", workers, got, i)
			}
		}
		in.Reset()
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&in, "{\"n\":%d}\n", i)
		}
	}
}

func TestFindings(t *testing.T) {
	in := "{\"n\":1}\n\n{\"n\":-1}\n{\"n\":2,}\r\n{\"m\":\"\xff\"}\n{\"n\":3"
	rec := newRecorder(t)
	rep := &report.Report{}
	if _, err := (&JSONL{Path: "f.jsonl", Rules: rec, Report: rep}).Run(strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings() {
		got = append(got, fmt.Sprintf("%d:%d %s %s %s", f.Line, f.Column, f.Severity, f.Rule, f.Pointer))
	}
	want := []string{
		"2:0 warning blank-line ",
		"3:0 error schema /n",
		"4:8 error json-syntax ",
		"5:7 error invalid-utf8 ",
		"6:0 error torn-line ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if fmt.Sprint(rec.seen) != "[1 3 4 5 6]" {
		t.Errorf("Check saw lines %v", rec.seen)
	}
}
