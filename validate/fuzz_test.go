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

// FuzzSkeleton: every line taken as a long one (scanned as a stream and
// checked on its skeleton) gets the findings the whole-line path gives,
// and a valid line reaches the rules with the same bytes when nothing in
// it was long enough to cut.
func FuzzSkeleton(f *testing.F) {
	sch, err := schema.Compile("flat/v1/line.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"{\"n\":1}\n", "[1,{\"a\":\"\\u00e9\"}]\r\n", "{\"n\":tru}", "{\"a\":1.e}\n\"x\"", "\xef\xbb\xbf{}\n",
		`{"type":"message","id":"a","parent_id":"","timestamp":"2026-11-21T04:24:24Z","role":"user","message":{"role":"user","content":"x"}}`} {
		f.Add([]byte(s))
	}
	run := func(t *testing.T, data []byte, longLine int) ([]string, []Line) {
		rules := &flatRules{sch: sch}
		rep := &report.Report{}
		if _, err := (&JSONL{Path: "f.jsonl", Rules: rules, Report: rep, Workers: 2, LongLine: longLine}).Run(bytes.NewReader(data)); err != nil {
			t.Fatalf("reading from memory failed: %v", err)
		}
		var out []string
		for _, fd := range rep.Findings() {
			out = append(out, fd.Text())
		}
		return out, rules.seen
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantLines := run(t, data, 0)
		got, gotLines := run(t, data, 1)
		if len(got) != len(want) {
			t.Fatalf("findings differ:\nwhole line: %q\nskeleton:   %q", want, got)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("findings differ:\nwhole line: %q\nskeleton:   %q", want, got)
			}
		}
		for i, l := range wantLines {
			g := gotLines[i]
			if g.N != l.N || g.Valid != l.Valid || l.Valid && len(l.Bytes) < longString && !bytes.Equal(g.Bytes, l.Bytes) {
				t.Fatalf("line %d: skeleton %q valid %v, whole %q valid %v", l.N, g.Bytes, g.Valid, l.Bytes, l.Valid)
			}
		}
	})
}
