package schema_test

import (
	"strings"
	"testing"

	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
)

// goat's metadata.json: total_cost_usd is a number with a minimum, which
// the schema library compares as a big.Rat.
const metadata = "goat/v1/metadata.json"

const validMetadata = `{"id":"s","cwd":"/","model":"m","created_at":"2026-01-06T10:00:00Z","updated_at":"2026-01-06T10:00:00Z","message_count":0,"turn_count":0,"total_cost_usd":0}`

func TestDocCheck(t *testing.T) {
	lineOf := func(ptr string) int { return 10 + strings.Count(ptr, "/") }
	tests := []struct {
		name string
		doc  schema.Doc
		file string
		b    string
		want []report.Finding
	}{
		{name: "valid", doc: schema.Doc{Path: "m.json"}, file: metadata, b: validMetadata},
		{
			// A number the library cannot hold makes it panic: on a whole
			// document that is one finding, not a crash.
			name: "panic on a document", doc: schema.Doc{Path: "m.json"}, file: metadata,
			b: strings.Replace(validMetadata, `"total_cost_usd":0`, `"total_cost_usd":1e999999999`, 1),
			want: []report.Finding{{Path: "m.json", Severity: report.Error, Rule: "schema",
				Message: "the schema validator failed on this file (runtime error: invalid memory address or nil pointer dereference); a number is probably out of range"}},
		},
		{
			name: "panic on a line", doc: schema.Doc{Path: "m.jsonl", Line: 3}, file: metadata,
			b: strings.Replace(validMetadata, `"total_cost_usd":0`, `"total_cost_usd":1e999999999`, 1),
			want: []report.Finding{{Path: "m.jsonl", Line: 3, Severity: report.Error, Rule: "schema",
				Message: "the schema validator failed on this line (runtime error: invalid memory address or nil pointer dereference); a number is probably out of range"}},
		},
		{
			name: "issues at the layout's line, under the document's pointer", file: metadata,
			doc: schema.Doc{Path: "x.json", Pointer: "/doc", LineOf: lineOf},
			b:   strings.Replace(validMetadata, `"turn_count":0`, `"turn_count":-1`, 1),
			want: []report.Finding{{Path: "x.json", Line: 12, Pointer: "/doc/turn_count", Severity: report.Error, Rule: "schema",
				Message: "minimum: got -1, want 0 [schema goat/v1/metadata.json#/properties/turn_count/minimum]"}},
		},
		{
			name: "skipped issues", file: metadata,
			doc: schema.Doc{Path: "x.json", Skip: func(is schema.Issue) bool { return strings.HasSuffix(is.Keyword, "/minimum") }},
			b:   strings.Replace(validMetadata, `"turn_count":0`, `"turn_count":-1`, 1),
		},
		{
			name: "not JSON", doc: schema.Doc{Path: "x.json"}, file: metadata, b: `{"id":`,
			want: []report.Finding{{Path: "x.json", Severity: report.Error, Rule: "json-syntax", Message: "unexpected EOF"}},
		},
		{
			name: "no such schema", doc: schema.Doc{Path: "x.json"}, file: "goat/v9/none.json", b: `{}`,
			want: []report.Finding{{Path: "x.json", Severity: report.Error, Rule: "schema",
				Message: `compile schema goat/v9/none.json: failing loading "https://sesstool.dev/schema/goat/v9/none.json": invalid file url: https://sesstool.dev/schema/goat/v9/none.json`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.doc.Check(tt.file, []byte(tt.b))
			if len(got) != len(tt.want) {
				t.Fatalf("got %d findings %+v, want %+v", len(got), got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("finding %d:\n got  %+v\n want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}
