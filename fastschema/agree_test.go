package fastschema_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/fastschema"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/schema"
)

// pair is one schema with both validators.
type pair struct {
	name string
	slow *jsonschema.Schema
	fast *fastschema.Validator
}

func pairs(t testing.TB) []pair {
	var out []pair
	for _, name := range schema.List() {
		slow, err := schema.Compile(name)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := schema.FastCompile(name)
		if err != nil {
			t.Fatalf("%s has no fast path: %v", name, err)
		}
		out = append(out, pair{name, slow, fast})
	}
	return out
}

// slowValid is what the validate engine decides without the fast path.
func slowValid(p pair, b []byte) bool {
	if !utf8.Valid(b) || !jsonx.Valid(b) {
		return false
	}
	if _, _, dup := jsonx.DuplicateKey(b); dup {
		return false
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return false
	}
	return func() (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		return p.slow.Validate(inst) == nil
	}()
}

// agree fails when the fast path is certain and wrong. It returns the
// fast answer and the full validator's, so that a caller needs no second
// run of the slow validator (most of this package's test time).
func agree(t testing.TB, p pair, b []byte, where string) (got string, want bool) {
	t.Helper()
	got = fastschema.Check(p.fast, b)
	want = slowValid(p, b)
	if got == "pass" && !want || got == "fail" && want {
		t.Errorf("%s against %s: fast path says %s, jsonschema/v6 says valid=%v\n%s", where, p.name, got, want, clip(b))
	}
	return got, want
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// corpus is every JSONL line and JSON file of the repository's samples, and
// of the real pi sessions and ash fixtures in the shared folder when it is
// there (the project does not carry copies of them).
func corpus(t testing.TB) (texts [][]byte, where []string) {
	var files []string
	roots := []string{filepath.Join("..", "testdata", "samples")}
	for _, rel := range []string{"pi", "ash/upstream-test-fixtures"} {
		if p, ok := shared.Lookup(rel); ok {
			roots = append(roots, p)
		}
	}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, ".json") {
			texts, where = append(texts, b), append(where, f)
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for n := 1; sc.Scan(); n++ {
			if len(bytes.TrimSpace(sc.Bytes())) > 0 {
				texts, where = append(texts, bytes.Clone(sc.Bytes())), append(where, f+":"+itoa(n))
			}
		}
	}
	return texts, where
}

func itoa(n int) string { return strconv.Itoa(n) }

// checked says which schemas the i-th text is checked against: every text
// meets the line schemas (which reach every entry type's schema through
// their dispatch), and every stride-th text meets all of them. pi's
// sessions are long, so only one line in ten of theirs does; under -short,
// one text in five of that (the rest meet the line schemas still).
func checked(p pair, where string, i int) bool {
	stride := 1
	if strings.Contains(where, "/pi/") {
		stride = 10
	}
	stride *= short.Size(1, 5)
	return i%stride == 0 || strings.HasSuffix(p.name, "/line.json")
}

// mutated says whether the i-th text is mutated: every text of the
// project's samples and one line in fifty of pi's long sessions; under
// -short, one in four of those, and always the first text of each folder
// (a layout, or one of ash's fixtures), so that every layout keeps one.
func mutated(where []string, i int) bool {
	every := short.Size(1, 4)
	if strings.Contains(where[i], "/pi/") {
		every *= 50
	}
	first := i == 0 || family(where[i-1]) != family(where[i])
	return i%every == 0 || short.On() && first
}

// family is the folder of a text's file.
func family(where string) string {
	if j := strings.LastIndex(where, ":"); j > strings.LastIndex(where, "/") {
		where = where[:j]
	}
	return filepath.Dir(where)
}

// Every sample against the schemas: the fast path is never certain and
// wrong, and every sample the full validator accepts, the fast path accepts
// too (otherwise real files would not get its speed).
func TestAgreesOnSamples(t *testing.T) {
	ps := pairs(t)
	texts, where := corpus(t)
	accepted, checks := 0, 0
	for i, b := range texts {
		for _, p := range ps {
			if !checked(p, where[i], i) {
				continue
			}
			checks++
			got, valid := agree(t, p, b, where[i])
			if valid {
				accepted++
				if got != "pass" {
					t.Errorf("%s against %s: valid, but the fast path says %s\n%s", where[i], p.name, got, clip(b))
				}
			}
		}
	}
	t.Logf("%d texts, %d checks, %d valid", len(texts), checks, accepted)
	if short.On() {
		t.Logf("-short: one text in 5 meets every schema; go test -run '^%s$' without -short checks all", t.Name())
	}
	if accepted < len(texts) {
		t.Fatalf("only %d (text, schema) pairs are valid for %d texts: the corpus or the schema list is wrong", accepted, len(texts))
	}
}

// Mutations of the samples (each member replaced by a value of every JSON
// type, or removed; a key repeated; a bad escape) must not make the fast
// path certain and wrong, against every schema the original satisfies.
func TestAgreesOnMutations(t *testing.T) {
	ps := pairs(t)
	texts, where := corpus(t)
	counts := map[string]int{}
	for i, b := range texts {
		if !mutated(where, i) {
			continue
		}
		for _, p := range valid(ps, b, 2) {
			for _, m := range mutations(t, b) {
				got, _ := agree(t, p, m, where[i]+" (mutated)")
				counts[got]++
			}
		}
	}
	t.Logf("fast answers on mutations: %v", counts)
	if short.On() {
		t.Logf("-short: one text in 4 mutated, and the first of each folder; go test -run '^%s$' without -short mutates all", t.Name())
	}
	if counts["pass"] == 0 || counts["fail"] == 0 {
		t.Fatalf("mutations exercised too little: %v", counts)
	}
}

// valid returns up to max schemas b satisfies, line schemas first (they
// reach every entry type's schema through their dispatch).
func valid(ps []pair, b []byte, max int) []pair {
	var lines, others []pair
	for _, p := range ps {
		switch {
		case !slowValid(p, b):
		case strings.HasSuffix(p.name, "/line.json"):
			lines = append(lines, p)
		default:
			others = append(others, p)
		}
	}
	out := append(lines, others...)
	return out[:min(max, len(out))]
}

// FuzzAgree: for any text and any schema, the fast path is never certain
// and wrong.
func FuzzAgree(f *testing.F) {
	texts, _ := corpus(f)
	for i := 0; i < len(texts); i += 37 {
		f.Add(texts[i], uint8(i))
	}
	ps := pairs(f)
	f.Fuzz(func(t *testing.T, b []byte, which uint8) {
		agree(t, ps[int(which)%len(ps)], b, "fuzz input")
	})
}

var replacements = []any{json.Number("1"), json.Number("-1"), json.Number("1.5"), json.Number("0"),
	"x", "", "text", "user", nil, true, false, map[string]any{}, []any{}, []any{"x"}, map[string]any{"type": "text"}}

// mutations returns variants of b: each of up to 30 members (depth first)
// replaced by every replacement value or removed, plus byte-level damage.
func mutations(t *testing.T, b []byte) [][]byte {
	var out [][]byte
	out = append(out, bytes.Replace(b, []byte(`{"`), []byte(`{"type":1,"`), 1))
	out = append(out, bytes.Replace(b, []byte(`":"`), []byte(`":"\x`), 1))
	out = append(out, bytes.Replace(b, []byte(`":"`), []byte(`":"\u00e9`), 1))
	if len(b) > 2 {
		out = append(out, b[:len(b)/2])
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var root any
	if dec.Decode(&root) != nil {
		return out
	}
	var paths [][]any
	walk(root, nil, &paths)
	for _, path := range paths {
		for _, r := range replacements {
			out = append(out, encode(t, set(root, path, r, false)))
		}
		out = append(out, encode(t, set(root, path, nil, true)))
	}
	return out
}

func walk(v any, path []any, out *[][]any) {
	if len(*out) >= 30 {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := append(append([]any{}, path...), k)
			*out = append(*out, p)
			walk(x[k], p, out)
		}
	case []any:
		for i, e := range x {
			p := append(append([]any{}, path...), i)
			*out = append(*out, p)
			walk(e, p, out)
		}
	}
}

// set returns a copy of v with the value at path replaced (or removed).
func set(v any, path []any, r any, remove bool) any {
	if len(path) == 0 {
		return r
	}
	switch x := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(x))
		for k, e := range x {
			c[k] = e
		}
		k := path[0].(string)
		if len(path) == 1 && remove {
			delete(c, k)
		} else {
			c[k] = set(x[k], path[1:], r, remove)
		}
		return c
	case []any:
		c := append([]any{}, x...)
		i := path[0].(int)
		if len(path) == 1 && remove {
			return append(c[:i], c[i+1:]...)
		}
		c[i] = set(x[i], path[1:], r, remove)
		return c
	}
	return v
}

func encode(t *testing.T, v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
