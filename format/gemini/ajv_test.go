package gemini_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/tidwall/gjson"
)

// TestSchemasInAjv proves the schema folder works as it is in a standard
// validator: ajv loads every schema by $id and checks each line of the
// JSON Lines samples against gemini/v2/line.json, and each legacy document
// (put on one line) against gemini/v1/document.json, and agrees with
// sesstool on which the schema refuses.
func TestSchemasInAjv(t *testing.T) {
	dir := "../../schema/gemini"
	type tc struct {
		file  string
		valid bool
	}
	lines := []tc{
		{"testdata/invalid/schema.jsonl", false},
		{"testdata/invalid/no-metadata.jsonl", true}, // every line is valid; the metadata rule is sesstool's
		{"testdata/warn/rewind-unknown.jsonl", true},
	}
	for _, p := range jsonlSamples(t) {
		lines = append(lines, tc{p, true})
	}
	tmp := t.TempDir()
	oneLine := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(tmp, filepath.Base(p)+".line")
		if err := os.WriteFile(out, []byte(gjson.GetBytes(b, "@ugly").Raw+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return out
	}
	docs := []tc{{oneLine(samples + "legacy.json"), true}, {oneLine("testdata/invalid/legacy-schema.json"), false}}
	real, _ := filepath.Glob(filepath.Join(shared.Dir(), "real-world", "gemini", "*.json"))
	for _, p := range real {
		docs = append(docs, tc{oneLine(p), true})
	}
	for _, set := range []struct {
		schema string
		cases  []tc
	}{{"v2/line.json", lines}, {"v1/document.json", docs}} {
		var files []string
		for _, c := range set.cases {
			files = append(files, c.file)
		}
		got := peers.AjvFiles(t, dir, filepath.Join(dir, set.schema), files)
		for _, c := range set.cases {
			n := got[c.file]
			if c.valid && (n.Lines == 0 || n.Invalid != 0) {
				t.Errorf("%s: ajv rejects a valid session: %+v", c.file, n)
			}
			if !c.valid && n.Invalid == 0 {
				t.Errorf("%s: ajv accepts an invalid session: %+v", c.file, n)
			}
		}
	}
}
