package mockmodel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// post sends body to the mock and returns the reply: the JSON object, or
// for a stream the message it assembles from the events.
func post(t *testing.T, s *Server, path, body string) map[string]any {
	t.Helper()
	resp, err := http.Post(s.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s: %v: %s", path, err, raw)
		}
		return m
	}
	return assemble(t, raw)
}

// assemble builds a message from a Messages stream as a client does.
func assemble(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var msg map[string]any
	var blocks []map[string]any
	partial := map[int]string{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 1<<20)
	var names []string
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "event: ") {
			names = append(names, strings.TrimPrefix(line, "event: "))
			continue
		}
		if !strings.HasPrefix(line, "data: ") {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev); err != nil {
			t.Fatal(err)
		}
		if ev["type"] != names[len(names)-1] {
			t.Fatalf("event %q carries type %v", names[len(names)-1], ev["type"])
		}
		switch ev["type"] {
		case "message_start":
			msg = ev["message"].(map[string]any)
		case "content_block_start":
			blocks = append(blocks, ev["content_block"].(map[string]any))
		case "content_block_delta":
			i := int(ev["index"].(float64))
			d := ev["delta"].(map[string]any)
			b := blocks[i]
			switch d["type"] {
			case "thinking_delta":
				b["thinking"] = b["thinking"].(string) + d["thinking"].(string)
			case "signature_delta":
				b["signature"] = d["signature"]
			case "text_delta":
				b["text"] = b["text"].(string) + d["text"].(string)
			case "input_json_delta":
				partial[i] += d["partial_json"].(string)
			}
		case "content_block_stop":
			i := int(ev["index"].(float64))
			if p, ok := partial[i]; ok {
				var in any
				if err := json.Unmarshal([]byte(p), &in); err != nil {
					t.Fatalf("tool input %q: %v", p, err)
				}
				blocks[i]["input"] = in
			}
		case "message_delta":
			msg["stop_reason"] = ev["delta"].(map[string]any)["stop_reason"]
			msg["usage"] = ev["usage"]
		}
	}
	if names[len(names)-1] != "message_stop" {
		t.Fatalf("stream ends with %q", names[len(names)-1])
	}
	content := make([]any, len(blocks))
	for i, b := range blocks {
		content[i] = b
	}
	msg["content"] = content
	return msg
}

func TestAnthropicPlaysTheScript(t *testing.T) {
	s := Start(t, Default, Anthropic()...)
	tools := `"tools":[{"name":"Bash"},{"name":"Read"}]`
	prompt := `{"role":"user","content":"hi"}`
	call := `{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]}`
	result := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"out"}]}`
	cases := []struct {
		name, body string
		stop       string
		types      string // the reply's block types
		text       string // the text of its last text block
	}{
		{"stream: thinking, preface, tool", `{"stream":true,"thinking":{"type":"adaptive"},` + tools + `,"messages":[` + prompt + `]}`, "tool_use", "thinking text tool_use", Default.Preface},
		{"no thinking asked", `{"stream":true,` + tools + `,"messages":[` + prompt + `]}`, "tool_use", "text tool_use", Default.Preface},
		{"after the result: final", `{"stream":true,` + tools + `,"messages":[` + prompt + `,` + call + `,` + result + `]}`, "end_turn", "text", Default.Final},
		{"not streamed", `{"thinking":{"type":"enabled"},` + tools + `,"messages":[` + prompt + `]}`, "tool_use", "thinking text tool_use", Default.Preface},
		{"side request: a title", `{"messages":[` + prompt + `]}`, "end_turn", "text", "Mock session"},
		{"side request: JSON schema", `{"output_format":{"type":"json_schema","schema":{"type":"object","properties":{"title":{"type":"string"},"isNewTopic":{"type":"boolean"}}}},"messages":[` + prompt + `]}`, "end_turn", "text", `{"isNewTopic":false,"title":"mock"}`},
		{"side request: prefill", `{"stream":true,"messages":[` + prompt + `,{"role":"assistant","content":"{"}]}`, "end_turn", "text", `"title": "Mock session", "isNewTopic": false}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := post(t, s, "/v1/messages?beta=true", c.body)
			if m["stop_reason"] != c.stop {
				t.Errorf("stop_reason %v, want %s", m["stop_reason"], c.stop)
			}
			var types []string
			text := ""
			for _, b := range m["content"].([]any) {
				b := b.(map[string]any)
				types = append(types, b["type"].(string))
				switch b["type"] {
				case "text":
					text = b["text"].(string)
				case "thinking":
					if !SignedByMock(b["thinking"].(string), b["signature"].(string)) {
						t.Errorf("thinking not signed by the mock: %v", b)
					}
				case "tool_use":
					if in := b["input"].(map[string]any); in["command"] != Default.Command {
						t.Errorf("tool input %v", in)
					}
				}
			}
			if strings.Join(types, " ") != c.types || text != c.text {
				t.Errorf("blocks %q text %q, want %q %q", types, text, c.types, c.text)
			}
			if u := m["usage"].(map[string]any); u["output_tokens"].(float64) != float64(Default.OutputTokens) {
				t.Errorf("usage %v", u)
			}
		})
	}
	if m := post(t, s, "/v1/messages/count_tokens", `{"messages":[`+prompt+`]}`); m["input_tokens"].(float64) < 1 {
		t.Errorf("count_tokens: %v", m)
	}
}

// The ids the mock issues are unique, as a resumed session's calls must
// not clash with the ones before.
func TestAnthropicIDsUnique(t *testing.T) {
	a, b := nextAnthropicID("toolu"), nextAnthropicID("toolu")
	if a == b {
		t.Fatalf("two ids %q", a)
	}
}
