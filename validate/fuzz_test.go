package validate

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
	"github.com/tidwall/gjson"
)

// flatRules hands every line to a real layout schema (flat v1) so the
// schema validator sees fuzzed input too, and records delivery order.
type flatRules struct {
	sch      *jsonschema.Schema
	seen     []Line
	finished bool
}

func (r *flatRules) Schema(gjson.Result) *jsonschema.Schema { return r.sch }
func (r *flatRules) Check(l Line) {
	r.seen = append(r.seen, Line{N: l.N, Valid: l.Valid, Last: l.Last, Bytes: bytes.Clone(l.Bytes)})
}
func (r *flatRules) Finish() { r.finished = true }

// FuzzEngine: the engine never panics, delivers every non-blank line once,
// in order, calls Finish, agrees with encoding/json about which lines are
// JSON, and names file and line in every line finding.
func FuzzEngine(f *testing.F) {
	sch, err := schema.Compile("flat/v1/line.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rules := &flatRules{sch: sch}
		rep := &report.Report{}
		n, err := (&JSONL{Path: "f.jsonl", Rules: rules, Report: rep, Workers: 2}).Run(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("reading from memory failed: %v", err)
		}
		if !rules.finished || n != len(rules.seen) {
			t.Fatalf("finished %v, count %d, delivered %d", rules.finished, n, len(rules.seen))
		}
		for i, l := range rules.seen {
			if i > 0 && l.N <= rules.seen[i-1].N {
				t.Fatalf("line %d delivered after line %d", l.N, rules.seen[i-1].N)
			}
			if l.Last != (i == len(rules.seen)-1) {
				t.Fatalf("line %d: Last is %v", l.N, l.Last)
			}
			if l.Valid && !json.Valid(l.Bytes) {
				t.Fatalf("line %d: the engine calls %q valid JSON, encoding/json does not", l.N, l.Bytes)
			}
		}
		for _, fd := range rep.Findings() {
			if fd.Path != "f.jsonl" || fd.Line < 1 || fd.Rule == "" || fd.Message == "" {
				t.Fatalf("finding without file, line, rule or message: %+v", fd)
			}
		}
	})
}
