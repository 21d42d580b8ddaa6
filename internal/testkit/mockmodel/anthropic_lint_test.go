package mockmodel

import (
	"fmt"
	"strings"
	"testing"
)

func TestLintAnthropic(t *testing.T) {
	signed := fmt.Sprintf(`{"type":"thinking","thinking":"hm","signature":%q}`, Sign("hm"))
	use := `{"type":"tool_use","id":"t1","name":"Bash","input":{}}`
	result := `{"type":"tool_result","tool_use_id":"t1","content":"ok"}`
	msgs := func(ms ...string) []byte { return []byte(`{"messages":[` + strings.Join(ms, ",") + `]}`) }
	user := func(bs ...string) string { return `{"role":"user","content":[` + strings.Join(bs, ",") + `]}` }
	asst := func(bs ...string) string { return `{"role":"assistant","content":[` + strings.Join(bs, ",") + `]}` }
	cases := []struct {
		name    string
		body    []byte
		trusted string
		want    []string // substrings of the findings, in order; none: clean
	}{
		{name: "clean", body: msgs(`{"role":"user","content":"hi"}`, asst(signed, use), user(result), asst(`{"type":"text","text":"done"}`))},
		{name: "system turns are skipped", body: msgs(user(`{"type":"text","text":"hi"}`), asst(use), `{"role":"system","content":"note"}`, user(result))},
		{name: "unsigned thinking", body: msgs(user(`{"type":"text","text":"hi"}`), asst(`{"type":"thinking","thinking":"hm"}`)),
			want: []string{"messages[1]: content[0]: a thinking block without a signature"}},
		{name: "empty signature", body: msgs(asst(`{"type":"thinking","thinking":"hm","signature":""}`)),
			want: []string{"without a signature"}},
		{name: "foreign signature", body: msgs(asst(`{"type":"thinking","thinking":"hm","signature":"RXh0ZXJuYWw="}`)),
			want: []string{"signature the service did not issue"}},
		{name: "the mock's signature of another text", body: msgs(asst(fmt.Sprintf(`{"type":"thinking","thinking":"changed","signature":%q}`, Sign("hm")))),
			want: []string{"signature the service did not issue"}},
		{name: "a trusted signature", trusted: "RXh0ZXJuYWw=", body: msgs(asst(`{"type":"thinking","thinking":"hm","signature":"RXh0ZXJuYWw="}`))},
		{name: "redacted thinking not trusted", body: msgs(asst(`{"type":"redacted_thinking","data":"xyz"}`)),
			want: []string{"redacted_thinking"}},
		{name: "tool_use without result", body: msgs(user(`{"type":"text","text":"hi"}`), asst(use), user(`{"type":"text","text":"next"}`)),
			want: []string{"messages[1]: tool_use t1 has no tool_result"}},
		{name: "tool_use last", body: msgs(asst(use)), want: []string{"tool_use t1 has no tool_result"}},
		{name: "result without use", body: msgs(asst(`{"type":"text","text":"x"}`), user(result)),
			want: []string{`tool_result for "t1", which is no tool_use`}},
		{name: "result two turns late", body: msgs(asst(use), user(`{"type":"text","text":"x"}`), asst(`{"type":"text","text":"y"}`), user(result)),
			want: []string{"tool_use t1 has no tool_result", `tool_result for "t1"`}},
		{name: "duplicate id", body: msgs(asst(use), user(result), asst(use), user(result)), want: []string{"used twice"}},
		{name: "unknown role", body: msgs(`{"role":"tool","content":"x"}`), want: []string{`role "tool"`}},
		{name: "not JSON", body: []byte(`{`), want: []string{"decoding"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := LintAnthropic(c.body, func(sig string) bool { return c.trusted != "" && sig == c.trusted })
			if len(got) != len(c.want) {
				t.Fatalf("got %d findings %q, want %d %q", len(got), got, len(c.want), c.want)
			}
			for i := range got {
				if !strings.Contains(got[i], c.want[i]) {
					t.Errorf("finding %d: %q, want it to hold %q", i, got[i], c.want[i])
				}
			}
		})
	}
}
