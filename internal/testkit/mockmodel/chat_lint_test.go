package mockmodel

import (
	"strings"
	"testing"
)

func TestLintChat(t *testing.T) {
	call := func(id string) string {
		return `{"role":"assistant","content":"","tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"bash","arguments":"{}"}}]}`
	}
	result := func(id string) string { return `{"role":"tool","tool_call_id":"` + id + `","content":"ok"}` }
	user := `{"role":"user","content":"hi"}`
	cases := []struct {
		name string
		msgs []string
		want []string // substrings of the problems, in order
	}{
		{"paired", []string{user, call("a"), result("a"), `{"role":"assistant","content":"done"}`}, nil},
		{"two calls, both answered", []string{user, `{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"x"}},{"id":"b","function":{"name":"y"}}]}`, result("b"), result("a")}, nil},
		{"call without result at the end", []string{user, call("a")}, []string{`tool call "a" has no tool message before messages[2]`}},
		{"call without result before the next turn", []string{user, call("a"), user, call("b"), result("b")}, []string{`messages[1]: tool call "a" has no tool message before messages[2]`}},
		{"result without call", []string{user, result("z")}, []string{`messages[1]: tool message for "z" answers no open tool call`}},
		{"result after the next assistant message", []string{user, call("a"), `{"role":"assistant","content":"x"}`, result("a")}, []string{`tool call "a" has no tool message`, `tool message for "a" answers no open tool call`}},
		{"result twice", []string{user, call("a"), result("a"), result("a")}, []string{`messages[3]: tool message for "a" answers no open tool call`}},
		{"id used twice", []string{user, call("a"), result("a"), call("a")}, []string{`tool call id "a" used twice`}},
		{"call without id", []string{user, call("")}, []string{"has no id"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, err := ParseChat([]byte(`{"messages":[` + strings.Join(c.msgs, ",") + `]}`))
			if err != nil {
				t.Fatal(err)
			}
			got := LintChat(req)
			if len(got) != len(c.want) {
				t.Fatalf("got %d problems %q, want %d %q", len(got), got, len(c.want), c.want)
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q, want it to say %q", i, got[i], w)
				}
			}
		})
	}
}
