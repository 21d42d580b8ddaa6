package mockmodel

import (
	"strings"
	"testing"
)

func TestLintGemini(t *testing.T) {
	sig := GeminiSignature()
	user := `{"role":"user","parts":[{"text":"go"}]}`
	call := func(name, id, sig string) string {
		s := `{"functionCall":{"name":"` + name + `"`
		if id != "" {
			s += `,"id":"` + id + `"`
		}
		s += `,"args":{}}`
		if sig != "" {
			s += `,"thoughtSignature":"` + sig + `"`
		}
		return s + `}`
	}
	resp := func(name, id string) string {
		s := `{"functionResponse":{"name":"` + name + `"`
		if id != "" {
			s += `,"id":"` + id + `"`
		}
		return s + `,"response":{"output":"x"}}}`
	}
	model := func(parts ...string) string { return `{"role":"model","parts":[` + strings.Join(parts, ",") + `]}` }
	answer := func(parts ...string) string { return `{"role":"user","parts":[` + strings.Join(parts, ",") + `]}` }
	cases := []struct {
		name     string
		contents []string
		want     []string // substrings, one per problem
	}{
		{"clean", []string{user, model(`{"text":"t"}`, call("sh", "", sig)), answer(resp("sh", ""))}, nil},
		{"clean with ids, two calls answered in another order", []string{user, model(call("sh", "a", sig), call("sh", "b", "")), answer(resp("sh", "b"), resp("sh", "a"))}, nil},
		{"call unanswered at the end", []string{user, model(call("sh", "", sig))}, []string{`contents[1]: functionCall "sh" has no functionResponse`}},
		{"call answered a turn late", []string{user, model(call("sh", "", "")), user, answer(resp("sh", ""))},
			[]string{`contents[1]: functionCall "sh" has no functionResponse`, `contents[3]: functionResponse "sh" answers no functionCall`}},
		{"response without call", []string{user, answer(resp("sh", ""))}, []string{`contents[1]: functionResponse "sh" answers no functionCall`}},
		{"answered twice", []string{user, model(call("sh", "", "")), answer(resp("sh", ""), resp("sh", ""))}, []string{`contents[2]: functionResponse "sh" answers no functionCall`}},
		{"wrong id", []string{user, model(call("sh", "a", "")), answer(resp("sh", "b"))},
			[]string{`functionCall "sh" (id a) has no functionResponse`, `functionResponse "sh" (id b) answers no functionCall`}},
		{"foreign signature", []string{user, model(call("sh", "", "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I=")), answer(resp("sh", ""))},
			[]string{`contents[1].parts[0]: thoughtSignature`}},
		{"tampered signature", []string{user, model(`{"text":"t","thoughtSignature":"` + sig[:len(sig)-4] + `AAA=` + `"}`)},
			[]string{`contents[1].parts[0]: thoughtSignature`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := LintGemini([]byte(`{"contents":[` + strings.Join(c.contents, ",") + `]}`))
			if len(got) != len(c.want) {
				t.Fatalf("got %d problems, want %d: %q", len(got), len(c.want), got)
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q, want %q in it", i, got[i], w)
				}
			}
		})
	}
	if got := LintGemini([]byte(`{"contents":`)); len(got) != 1 {
		t.Errorf("a body that is not JSON: %q", got)
	}
}
