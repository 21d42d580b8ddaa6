package mockmodel

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The mock plays the script in Chat Completions: a stream with the
// reasoning, the preface and the shell tool's call split in two argument
// pieces, then usage and [DONE]; Final after a tool message; a short title
// for a request without tools; and the whole message when no stream is
// asked for.
func TestChatPlaysScript(t *testing.T) {
	s := Start(t, Default, ChatRoute())
	tools := `[{"type":"function","function":{"name":"read","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}},` +
		`{"type":"function","function":{"name":"bash","parameters":{"type":"object","properties":{"command":{"type":"string"},"description":{"type":"string"}},"required":["command","description"]}}}]`
	cases := []struct {
		name, body string
		want       []string
	}{
		{"tool call", `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}],"tools":` + tools + `}`,
			[]string{`"reasoning_content":"The user wants`, `"content":"I will run a command."`, `"name":"bash","arguments":"{\"command\":\"echo mock-`, `"finish_reason":"tool_calls"`, `"usage":{"completion_tokens":20,"prompt_tokens":100,"total_tokens":120}`, "data: [DONE]"}},
		{"final", `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"},` +
			`{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"bash","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":"x"}],"tools":` + tools + `}`,
			[]string{`"content":"The command printed mock-tool-output. Done."`, `"finish_reason":"stop"`, "data: [DONE]"}},
		{"title", `{"model":"m","stream":true,"messages":[{"role":"system","content":"You are a title generator."},{"role":"user","content":"go"}]}`,
			[]string{`"content":"Mock session"`, `"finish_reason":"stop"`}},
		{"not streamed", `{"model":"m","messages":[{"role":"user","content":"go"}],"tools":` + tools + `}`,
			[]string{`"object":"chat.completion"`, `"arguments":"{\"command\":\"echo mock-tool-output\",\"description\":\"Run echo mock-tool-output\"}"`, `"finish_reason":"tool_calls"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := postJSON(s.URL+"/v1/chat/completions", c.body)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(resp, w) {
					t.Errorf("reply lacks %s:\n%s", w, resp)
				}
			}
		})
	}
	// No shell tool offered: a 400, not a call of a tool that is not there.
	resp, _ := postJSON(s.URL+"/v1/chat/completions", `{"stream":true,"messages":[{"role":"user","content":"go"}],"tools":[{"type":"function","function":{"name":"read","parameters":{}}}]}`)
	if !strings.Contains(resp, "no shell tool") {
		t.Errorf("without a shell tool: %s", resp)
	}
}

func TestChatMessageText(t *testing.T) {
	for _, c := range []struct{ content, want string }{
		{`"plain"`, "plain"},
		{`[{"type":"text","text":"a"},{"type":"image_url","image_url":{}},{"type":"text","text":"b"}]`, "a\nb"},
		{`null`, ""},
	} {
		m := ChatMessage{Content: json.RawMessage(c.content)}
		if got := m.Text(); got != c.want {
			t.Errorf("Text(%s) = %q, want %q", c.content, got, c.want)
		}
	}
}

func postJSON(url, body string) (string, error) {
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}
