package fastschema_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/fastschema"
)

const testBase = "https://sesstool.test/"

// docs is a Compiler's Load over schema texts by file name under testBase.
func docs(files map[string]string) func(string) ([]byte, error) {
	return func(u string) ([]byte, error) {
		s, ok := files[strings.TrimPrefix(u, testBase)]
		if !ok {
			return nil, fmt.Errorf("no schema %s", u)
		}
		return []byte(s), nil
	}
}

// TestKeywords: each keyword the fast path compiles gives the answer
// expected of it, and a certain answer is the one jsonschema/v6 gives too
// (so the table's expectations are checked, not just asserted).
func TestKeywords(t *testing.T) {
	cases := []struct {
		name, schema string
		texts        map[string]string // text -> "pass", "fail" or "unsure"
	}{
		{"if/then/else", `{"if":{"required":["a"]},"then":{"required":["b"]},"else":{"required":["c"]}}`,
			map[string]string{`{"a":1,"b":2}`: "pass", `{"a":1}`: "fail", `{"c":1}`: "pass", `{}`: "fail", `{"b":1}`: "fail"}},
		{"else without then", `{"if":{"required":["a"]},"else":{"required":["c"]}}`,
			map[string]string{`{"a":1}`: "pass", `{}`: "fail", `{"c":1}`: "pass"}},
		{"nested else", `{"if":{"required":["$rewindTo"]},"then":{"required":["x"]},"else":{"if":{"required":["$set"]},"then":{"properties":{"$set":{"type":"object"}}},"else":{"required":["m"]}}}`,
			map[string]string{`{"$set":null}`: "fail", `{"$set":true}`: "fail", `{"$set":{}}`: "pass", `{}`: "fail", `{"m":1}`: "pass", `{"$rewindTo":"a"}`: "fail"}},
		{"not", `{"type":"object","not":{"required":["blocks","orderedBlocks"]}}`,
			map[string]string{`{"blocks":1,"orderedBlocks":2}`: "fail", `{"blocks":1}`: "pass", `{}`: "pass"}},
		{"maximum", `{"type":"integer","maximum":999}`,
			map[string]string{`999`: "pass", `1000`: "fail", `1e3`: "fail", `-5`: "pass", `999.0`: "unsure"}},
		{"maximum written 1.0", `{"type":"number","minimum":0.0,"maximum":1.0}`,
			map[string]string{`0.5`: "pass", `1.5`: "fail", `-0.5`: "fail", `1`: "pass", `2`: "fail"}},
		{"maximum 2^53-1", `{"type":"integer","maximum":9007199254740991}`,
			map[string]string{`9007199254740991`: "pass", `9007199254740992`: "fail", `99999999999999999999`: "fail"}},
		{"exclusiveMinimum", `{"type":"number","exclusiveMinimum":0}`,
			map[string]string{`0`: "fail", `1`: "pass", `-0.5`: "fail", `0.5`: "pass", `0.0`: "unsure"}},
		{"maxLength", `{"type":"string","maxLength":3}`,
			map[string]string{`"abc"`: "pass", `"abcd"`: "fail", `"äöü"`: "pass", `"äöüß"`: "fail", `"a\nb"`: "unsure"}},
		{"minItems", `{"type":"array","minItems":1}`,
			map[string]string{`[]`: "fail", `[1]`: "pass", `[1,2]`: "pass"}},
		{"annotations the full validator does not know", `{"type":"string","enum":["a","b"],"x-enumDescriptions":["A","B"],"stability":"experimental","visibility":"internal","x-opaque-json":true}`,
			map[string]string{`"a"`: "pass", `"c"`: "fail", `1`: "fail"}},
		{"contentEncoding is an annotation", `{"type":"string","contentEncoding":"base64"}`,
			map[string]string{`"!!not base64"`: "pass", `1`: "fail"}},
		{"integer-valued number literals", `{"type":"integer","minimum":0}`,
			map[string]string{`1112.0`: "pass", `1.5`: "fail", `1e3`: "pass", `1E+3`: "pass", `15e-1`: "fail", `150e-1`: "pass",
				`1.50e1`: "pass", `0.0`: "unsure", `10e-1`: "pass", `1e-1`: "fail", `123456789012345678901234`: "pass", `-1.0`: "fail"}},
	}
	for _, c := range cases {
		files := map[string]string{"s.json": c.schema}
		v, err := (&fastschema.Compiler{Load: docs(files)}).Compile(testBase + "s.json")
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		full := fullSchema(t, files, "s.json")
		for text, want := range c.texts {
			got := fastschema.Check(v, []byte(text))
			if got != want {
				t.Errorf("%s: %s: fast path says %s, want %s", c.name, text, got, want)
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(text)))
			if err != nil {
				t.Fatal(err)
			}
			if valid := full.Validate(inst) == nil; want != "unsure" && valid != (want == "pass") {
				t.Errorf("%s: %s: jsonschema/v6 says valid=%v, the table says %s", c.name, text, valid, want)
			}
		}
	}
}

func fullSchema(t *testing.T, files map[string]string, name string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	for n, s := range files {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource(testBase+n, doc); err != nil {
			t.Fatal(err)
		}
	}
	s, err := c.Compile(testBase + name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCompileFailureLeavesNoNode: a schema that does not compile must not
// leave half-compiled nodes behind. The compiler registers a node before
// compiling its keywords (to close cycles); a node left registered after a
// failure would be empty or partial, so a later Compile reaching it (again,
// or through another schema's $ref) would accept what the schema rejects.
func TestCompileFailureLeavesNoNode(t *testing.T) {
	files := map[string]string{
		// uniqueItems is a keyword the fast path does not compile
		"defs.json": `{"$defs":{"Ev":{"type":"object","required":["kind"],"properties":{"kind":{"const":"a"},"tags":{"type":"array","uniqueItems":true}}},
			"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/B"}},"uniqueItems":true},
			"B":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}}}}`,
		"event.json": `{"$ref":"defs.json#/$defs/Ev"}`,
		"other.json": `{"type":"object","properties":{"ev":{"$ref":"defs.json#/$defs/Ev"}}}`,
		"a.json":     `{"$ref":"defs.json#/$defs/A"}`,
	}
	c := &fastschema.Compiler{Load: docs(files)}
	for _, name := range []string{"event.json", "event.json", "other.json", "defs.json#/$defs/Ev", "a.json", "a.json", "defs.json#/$defs/B", "defs.json#/$defs/A"} {
		v, err := c.Compile(testBase + name)
		if err == nil {
			t.Errorf("%s compiles after a failed compile; it answers %s for {\"tags\":1}", name, fastschema.Check(v, []byte(`{"tags":1}`)))
		}
	}
}
