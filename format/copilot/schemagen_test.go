package copilot

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
)

var update = flag.Bool("update", false, "rewrite goldens and schema/copilot from Copilot CLI's bundle")

// schemaDir is the folder the copilot schemas live in, from this package.
const schemaDir = "../../schema/copilot/v1"

// TestSchemasFromCLI derives schema/copilot/v1 from the event schema
// Copilot CLI 1.0.102 ships (schemas/session-events.schema.json in its
// bundle, the JSON Schema @github/copilot-sdk's session-events.d.ts is
// generated from): with -update it writes the folder, without it checks
// that the committed folder is exactly what the CLI's schema gives.
func TestSchemasFromCLI(t *testing.T) {
	src := filepath.Join(peers.CopilotBundle(t), "schemas", "session-events.schema.json")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	files, err := deriveSchemas(b)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.RemoveAll(schemaDir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(schemaDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, body := range files {
			if err := os.WriteFile(filepath.Join(schemaDir, name), body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	have, _ := filepath.Glob(filepath.Join(schemaDir, "*.json"))
	if len(have) != len(files) {
		t.Errorf("schema/copilot/v1 has %d files, the CLI's schema gives %d (run with -update)", len(have), len(files))
	}
	for name, body := range files {
		got, err := os.ReadFile(filepath.Join(schemaDir, name))
		if err != nil {
			t.Errorf("%s: %v (run with -update)", name, err)
			continue
		}
		if !bytes.Equal(got, body) {
			t.Errorf("%s differs from what the CLI's schema gives (run with -update)", name)
		}
	}
}

// deriveSchemas turns the CLI's one Draft-07 document (a SessionEvent
// anyOf over one definition per event type, all in "definitions") into the
// project's form: Draft 2020-12, defs.json holding every definition under
// $defs, one file per event type referring to its definition there, and
// line.json dispatching on type. Definitions are copied as the CLI spells
// them (key order kept): only their references are rewritten.
func deriveSchemas(src []byte) (map[string][]byte, error) {
	var doc struct {
		Definitions orderedObject `json:"definitions"`
	}
	if err := json.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("session-events.schema.json: %w", err)
	}
	defs := map[string]json.RawMessage{}
	for _, kv := range doc.Definitions {
		defs[kv.key] = kv.value
	}
	var union struct {
		AnyOf []struct {
			Ref string `json:"$ref"`
		} `json:"anyOf"`
	}
	if err := json.Unmarshal(defs["SessionEvent"], &union); err != nil || len(union.AnyOf) == 0 {
		return nil, fmt.Errorf("session-events.schema.json: no SessionEvent anyOf (%v)", err)
	}
	type event struct{ typ, def string }
	var events []event
	for _, a := range union.AnyOf {
		def := strings.TrimPrefix(a.Ref, "#/definitions/")
		var ev struct {
			Properties struct {
				Type struct {
					Const string `json:"const"`
				} `json:"type"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(defs[def], &ev); err != nil || ev.Properties.Type.Const == "" {
			return nil, fmt.Errorf("session-events.schema.json: %s has no type const (%v)", def, err)
		}
		events = append(events, event{ev.Properties.Type.Const, def})
	}
	sort.Slice(events, func(i, j int) bool { return events[i].typ < events[j].typ })

	out := map[string][]byte{}
	var d bytes.Buffer
	d.WriteString(`{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://sesstool.dev/schema/copilot/v1/defs.json",`)
	d.WriteString(`"title":"GitHub Copilot CLI session events: every definition","description":"Derived from schemas/session-events.schema.json of Copilot CLI ` + peers.CopilotCLIVersion + ` (the source of @github/copilot-sdk's session-events.d.ts) by format/copilot TestSchemasFromCLI: Draft-07 definitions moved to $defs, and the \\\\uXXXX escapes of its patterns written as the characters; nothing else changed.","$defs":{`)
	for i, kv := range doc.Definitions {
		if i > 0 {
			d.WriteByte(',')
		}
		k, _ := json.Marshal(kv.key)
		d.Write(k)
		d.WriteByte(':')
		v := bytes.ReplaceAll(kv.value, []byte(`"#/definitions/`), []byte(`"#/$defs/`))
		d.Write(portablePatterns(v))
	}
	d.WriteString("}}")
	var err error
	if out["defs.json"], err = indent(d.Bytes()); err != nil {
		return nil, err
	}
	type ifThen struct {
		If   any `json:"if"`
		Then any `json:"then"`
	}
	var dispatch []ifThen
	for _, e := range events {
		name := e.typ + ".json"
		s := map[string]any{
			"$schema": "https://json-schema.org/draft/2020-12/schema",
			"$id":     "https://sesstool.dev/schema/copilot/v1/" + name,
			"title":   "GitHub Copilot CLI: a " + e.typ + " event (" + e.def + ")",
			"$ref":    "defs.json#/$defs/" + e.def,
		}
		if out[name], err = marshal(s); err != nil {
			return nil, err
		}
		dispatch = append(dispatch, ifThen{
			If:   map[string]any{"properties": map[string]any{"type": map[string]any{"const": e.typ}}, "required": []string{"type"}},
			Then: map[string]any{"$ref": name},
		})
	}
	line := map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         "https://sesstool.dev/schema/copilot/v1/line.json",
		"title":       "GitHub Copilot CLI session: any event line",
		"description": "Dispatches on type. A type this folder does not name passes here (sesstool warns: unknown-event-type).",
		"type":        "object",
		"required":    []string{"type", "data", "id", "timestamp", "parentId"},
		"properties":  map[string]any{"type": map[string]any{"type": "string"}},
		"allOf":       dispatch,
	}
	if out["line.json"], err = marshal(line); err != nil {
		return nil, err
	}
	return out, nil
}

// patternMember is a "pattern" member with its JSON string value.
var patternMember = regexp.MustCompile(`"pattern":\s*"(?:[^"\\]|\\.)*"`)

// escapedCodePoint is a regex escape \uXXXX as spelt in a JSON string.
var escapedCodePoint = regexp.MustCompile(`\\\\u([0-9A-Fa-f]{4})`)

// portablePatterns rewrites the ECMAScript escape \uXXXX in the CLI's
// patterns as the character itself (a JSON \uXXXX escape), which every
// regex dialect reads alike: RE2, which sesstool's validator uses, has no
// \u escape, and ajv's u-mode has no \x{...}. Nothing else changes.
func portablePatterns(b []byte) []byte {
	return patternMember.ReplaceAllFunc(b, func(m []byte) []byte {
		return escapedCodePoint.ReplaceAll(m, []byte(`\u$1`))
	})
}

func marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return indent(b)
}

func indent(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// orderedObject is a JSON object's members in the order written.
type orderedObject []struct {
	key   string
	value json.RawMessage
}

func (o *orderedObject) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*o = append(*o, struct {
			key   string
			value json.RawMessage
		}{tok.(string), v})
	}
	return nil
}
