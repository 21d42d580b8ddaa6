package goat

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// fitLine cuts a line to the limit, keeps it valid JSON with every string
// valid UTF-8, cuts the longest string value (never a member name), and
// never splits an escape, a surrogate pair or a UTF-8 character.
func TestFitLine(t *testing.T) {
	long := func(unit string, n int) string { return strings.Repeat(unit, n) }
	for _, tc := range []struct {
		name  string
		line  string
		limit int
	}{
		{"ascii", `{"uuid":"u","message":{"role":"user","content":"` + long("a", 5000) + `"}}`, 1000},
		{"escapes", `{"uuid":"u","message":{"role":"tool","content":"` + long(`\n\"\\`, 2000) + `"}}`, 1001},
		{"unicode escapes", `{"uuid":"u","message":{"role":"tool","content":"` + long(`\u00e9`, 2000) + `"}}`, 1003},
		{"surrogate pairs", `{"uuid":"u","message":{"role":"tool","content":"` + long(`\ud83d\ude00`, 1000) + `"}}`, 1005},
		{"multibyte", `{"uuid":"u","message":{"role":"user","content":"` + long("é😀", 2000) + `"}}`, 1002},
		{"two long strings", `{"uuid":"u","message":{"role":"assistant","content":"` + long("b", 3000) + `","tool_calls":[{"id":"c","function":{"name":"n","arguments":"` + long("c", 3000) + `"}}]}}`, 1000},
		{"a long key stays", `{"` + long("k", 500) + `":"` + long("v", 5000) + `"}`, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, removed := fitLine([]byte(tc.line), tc.limit)
			if len(got) > tc.limit {
				t.Fatalf("%d bytes, limit %d", len(got), tc.limit)
			}
			if removed != len(tc.line)-len(got) {
				t.Errorf("removed %d, the line shrank by %d", removed, len(tc.line)-len(got))
			}
			var v any
			if err := json.Unmarshal(got, &v); err != nil {
				t.Fatalf("not JSON any more: %v\n%s", err, got)
			}
			if !strings.Contains(string(got), truncMark) {
				t.Error("no mark where it was cut")
			}
			if strings.Contains(string(got), "\ufffd") || !utf8.Valid(got) {
				t.Error("a character was split")
			}
			var s string
			json.Unmarshal(got, &v)
			b, _ := json.Marshal(v)
			s = string(b)
			if strings.Contains(s, `\ufffd`) || strings.Contains(s, "\ufffd") {
				t.Errorf("a lone surrogate was left: %s", s[:min(len(s), 200)])
			}
			if tc.name == "a long key stays" && !strings.Contains(string(got), long("k", 500)) {
				t.Error("the member name was cut")
			}
		})
	}
}
