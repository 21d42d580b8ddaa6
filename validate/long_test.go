package validate

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/report"
	"github.com/tidwall/gjson"
)

// lines is a Rules that records what each line looked like to the rules.
type lines struct {
	sch  *jsonschema.Schema
	seen []string
}

func (r *lines) Schema(gjson.Result) *jsonschema.Schema { return r.sch }
func (r *lines) Finish()                                {}
func (r *lines) Check(l Line) {
	v := "invalid"
	if l.Valid { // an invalid long line's bytes are only its head
		v = l.Value.Get("n").Raw + " " + string(l.Bytes)
	}
	r.seen = append(r.seen, fmt.Sprintf("%d %s size %d", l.N, v, l.Size))
}

func compile(t *testing.T, src string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("mem://t.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem://t.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const testSchema = `{"type":"object","required":["n"],"properties":{"n":{"type":"integer","minimum":0},
	"t":{"type":"string"},"a":{"type":"array","items":{"type":"string"}},"p":{"type":"string","maxLength":5}}}`

func run(t *testing.T, in string, longLine int) ([]string, []string) {
	t.Helper()
	ru := &lines{sch: compile(t, testSchema)}
	rep := &report.Report{}
	if _, err := (&JSONL{Path: "x", Rules: ru, Report: rep, Workers: 2, LongLine: longLine}).Run(strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range rep.Findings() {
		out = append(out, f.Text())
	}
	return out, ru.seen
}

// Every line taken as a long one (LongLine 1) must give the findings the
// whole-line path gives, and, with no string long enough to cut, reach the
// rules with the same bytes.
func TestSkeletonAgreesWithWholeLine(t *testing.T) {
	long := strings.Repeat("a", longString+10)
	escaped := strings.Repeat(`\\é\"`, longString)
	cases := map[string]string{
		"valid":          "{\"n\":1}\n{\"n\":2, \"t\":\"x\"}\r\n [ ] \n",
		"scalars":        "1\n\"x\"\ntrue\nnull\n-0.5e-3\n[[],[{}]]\n",
		"schema":         "{\"n\":-1}\n{\"t\":\"x\"}\n{\"n\":\"1\"}\n",
		"trailing comma": "{\"n\":1,}\n",
		"no colon":       "{\"n\" 1}\n",
		"literal":        "{\"n\":tru}\n{\"n\":nul}\n{\"n\":fals}\n",
		"minus":          "{\"n\":-}\n",
		"dot":            "{\"n\":1.}\n",
		"exponent":       "{\"n\":1e}\n{\"n\":1e+}\n",
		"leading zero":   "{\"n\":01}\n",
		"array":          "[1 2]\n[1,]\n",
		"after value":    "{\"n\":1} x\n",
		"escape":         "{\"n\":1,\"t\":\"a\\qb\"}\n",
		"hex escape":     "{\"n\":1,\"t\":\"\\u12x4\"}\n",
		"control":        "{\"n\":1,\"t\":\"a\tb\"}\n",
		"quote key":      "{'n':1}\n",
		"non-ASCII":      "{\"ü\":\"ä\",\"n\":é}\n",
		"end":            "{\"n\":1\n{\"n\":1,\"t\":\"ab\n{\"n\":1,\"t\":\"é\n{\"n\":1,\"t\":\"ab\\\n",
		"utf8":           "{\"n\":1,\"t\":\"\xff\"}\n{\"n\":1,\"t\":\"\xc3\"}\n{\"n\":1,\"t\":\"\xc3\n",
		"utf8 wins":      "{\"n\" 1,\"t\":\"\xff\"}\n",
		"bom":            "\xef\xbb\xbf{\"n\":1}\n",
		"duplicate":      "{\"n\":1,\"t\":\"" + long + "\",\"n\":2}\n",
		"torn":           "{\"n\":1}\n{\"n\":",
		"unterminated":   "{\"n\":1}\n{\"n\":2}",
		"deep":           strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + "\n" + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n",
		"long strings":   "{\"n\":-1,\"t\":\"" + long + "\",\"a\":[\"" + long + "\",\"" + escaped + "\",3]}\n",
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			want, wantLines := run(t, in, 0)
			got, gotLines := run(t, in, 1)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("findings differ:\nwhole line: %q\nskeleton:   %q", want, got)
			}
			if strings.Contains(in, long) || strings.Contains(in, escaped) {
				// cut strings: the rules see the same values otherwise
				for i := range gotLines {
					if gotLines[i][:4] != wantLines[i][:4] {
						t.Errorf("line %d: %q, want %q", i, gotLines[i][:4], wantLines[i][:4])
					}
				}
				return
			}
			if strings.Join(gotLines, "\n") != strings.Join(wantLines, "\n") {
				t.Errorf("lines differ:\nwhole line: %.300q\nskeleton:   %.300q", wantLines, gotLines)
			}
		})
	}
}

// A cut string the schema judges by more than its type is said to be
// unchecked, and no finding is made from its prefix.
func TestSkeletonSaysWhatItCouldNotCheck(t *testing.T) {
	in := "{\"n\":1,\"p\":\"" + strings.Repeat("b", longString+1) + "\",\"t\":\"" + strings.Repeat("c", longString+1) + "\"}\n"
	whole, _ := run(t, in, 0)
	if len(whole) != 1 || !strings.Contains(whole[0], "maxLength") {
		t.Fatalf("whole line: %q, want the maxLength error", whole)
	}
	got, _ := run(t, in, 1)
	if len(got) != 1 || !strings.Contains(got[0], "warning") || !strings.Contains(got[0], "/p") ||
		!strings.Contains(got[0], "maxLength") || !strings.Contains(got[0], "long-line") {
		t.Fatalf("skeleton: %q, want one long-line warning naming /p and maxLength", got)
	}
}

// A line too large even as a skeleton is checked for syntax and said to
// be unchecked otherwise.
func TestSkeletonTooLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"n":1,"a":[`)
	for b.Len() < skeletonCap+10 {
		b.WriteString(`"x",`)
	}
	b.WriteString("\"x\"]}\n{\"n\":2}\n")
	b.WriteString("{\"n\":1,\"" + strings.Repeat("k", longString+1) + "\":1}\n")
	got, seen := run(t, b.String(), 1)
	if len(got) != 2 || !strings.Contains(got[0], "x:1: warning") || !strings.Contains(got[0], "syntax only") ||
		!strings.Contains(got[1], "x:3: warning") || !strings.Contains(got[1], "object key longer") {
		t.Fatalf("findings %q, want a warning that only syntax was checked on lines 1 and 3", got)
	}
	if len(seen) != 3 || !strings.HasPrefix(seen[1], "2 2") || !strings.HasPrefix(seen[0], "1 invalid") {
		t.Fatalf("rules saw %.100q, want all three lines, the first without a skeleton", seen)
	}
}

// repeat yields n bytes of c.
type repeat struct {
	n int64
	c byte
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n {
		p = p[:r.n]
	}
	for i := range p {
		p[i] = r.c
	}
	r.n -= int64(len(p))
	return len(p), nil
}

// A line far longer than LongLine is validated without being held: the
// heap the run takes from the system stays a small fraction of the line.
func TestLongLineHeapBound(t *testing.T) {
	const size, bound = 256 << 20, 48 << 20
	in := io.MultiReader(strings.NewReader(`{"n":1,"t":"`), &repeat{n: size, c: 'a'},
		strings.NewReader("\",\"a\":[\"x\"]}\n{\"n\":-1}\n"))
	ru := &lines{sch: compile(t, testSchema)}
	rep := &report.Report{}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := (&JSONL{Path: "x", Rules: ru, Report: rep, Workers: 2, LongLine: 4 << 20}).Run(in); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	// signed: HeapSys may shrink, as stacks taken from the heap leave it
	grew := int64(after.HeapSys) - int64(before.HeapSys)
	t.Logf("heap grew by %d KiB for a %d MiB line", grew>>10, size>>20)
	if grew > bound {
		t.Errorf("heap grew by %d MiB for a %d MiB line, want under %d MiB", grew>>20, size>>20, bound>>20)
	}
	if len(ru.seen) != 2 || !strings.HasPrefix(ru.seen[0], "1 1 {\"n\":1,\"t\":\"aaa") || !strings.HasSuffix(ru.seen[0], fmt.Sprintf("size %d", size+24)) || rep.Errors() != 1 {
		t.Errorf("rules saw %.60q, %d errors; want the long line valid and the second line's error", ru.seen, rep.Errors())
	}
	if !bytes.Contains([]byte(ru.seen[0]), []byte(`"a":["x"]`)) {
		t.Errorf("the skeleton lost the members after the cut string: %.200q", ru.seen[0])
	}
}
