package mockmodel

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestLintResponses(t *testing.T) {
	mine := EncryptedReasoning("rs_1", "why")
	rs := func(id, enc string) string {
		s := `{"type":"reasoning","id":"` + id + `","summary":[{"type":"summary_text","text":"why"}]`
		if enc != "" {
			s += `,"encrypted_content":` + jsonString(enc)
		}
		return s + `}`
	}
	user := `{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`
	say := `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}`
	call := func(id string) string {
		return `{"type":"function_call","call_id":"` + id + `","name":"exec_command","arguments":"{}"}`
	}
	out := func(id string) string { return `{"type":"function_call_output","call_id":"` + id + `","output":"x"}` }
	trustReal := func(enc string) bool { return enc == "gAAAA-real" }
	cases := []struct {
		name    string
		include bool
		input   []string
		want    []string // substrings of the problems, in order; none for a clean request
	}{
		{"clean turn", true, []string{user, rs("rs_1", mine), say, call("c1"), out("c1"), say}, nil},
		{"call without output", false, []string{user, call("c1")}, []string{`input[1] (function_call): call_id "c1" has no output`}},
		{"output without call", false, []string{user, out("c9"), say}, []string{`input[1] (function_call_output): no earlier call has call_id "c9"`}},
		{"output before its call", false, []string{user, out("c1"), call("c1")}, []string{"no earlier call", `"c1" has no output`}},
		{"call without id", false, []string{user, call(""), say}, []string{"a call without call_id"}},
		{"two calls, one id", false, []string{user, call("c1"), call("c1"), out("c1")}, []string{"already the call of input[1]"}},
		{"two outputs", false, []string{user, call("c1"), out("c1"), out("c1")}, []string{"a second output"}},
		{"reasoning last", true, []string{user, rs("rs_1", mine)}, []string{"without its following item"}},
		{"reasoning before a user turn", true, []string{rs("rs_1", mine), user}, []string{"without its following item"}},
		{"missing encrypted_content", true, []string{user, rs("rs_1", ""), say}, []string{"without encrypted_content"}},
		{"missing but not asked for", false, []string{user, rs("rs_1", ""), say}, nil},
		{"foreign encrypted_content", true, []string{user, rs("rs_1", "gAAAA-other"), say}, []string{"was not issued by this service"}},
		{"the mock's, for another item", true, []string{user, rs("rs_2", mine), say}, []string{"was not issued"}},
		{"trusted: the account's own", true, []string{user, rs("rs_7", "gAAAA-real"), say}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := map[string]any{"model": "m", "input": json.RawMessage("[" + strings.Join(c.input, ",") + "]")}
			if c.include {
				req["include"] = []string{"reasoning.encrypted_content"}
			}
			body, _ := json.Marshal(req)
			got := LintResponses(body, trustReal)
			if len(got) != len(c.want) {
				t.Fatalf("problems %q, want %d like %q", got, len(c.want), c.want)
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d: %q, want it to say %q", i, got[i], w)
				}
			}
		})
	}
	if got := LintResponses([]byte("{"), nil); len(got) != 1 {
		t.Errorf("a body that is not JSON: %q", got)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
