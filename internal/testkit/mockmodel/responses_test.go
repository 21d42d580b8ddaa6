package mockmodel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The script in the Responses protocol: a prompt gets reasoning (with the
// mock's own encrypted content), a text and a call of the shell tool the
// request offers; a tool's output gets the final text; usage on
// response.completed; and the turn it plays passes the linter.
func TestResponsesPlaysTheScript(t *testing.T) {
	s := Start(t, Default, Responses()...)
	user := `{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`
	cases := []struct {
		name, tools, input string
		wantTypes          []string
		wantTool, wantArgs string
		wantText           string
	}{
		{"exec_command", `[{"type":"function","name":"exec_command"}]`, "[" + user + "]",
			[]string{"reasoning", "message", "function_call"}, "exec_command", `{"cmd":"echo mock-tool-output"}`, Default.Preface},
		{"shell", `[{"type":"function","name":"shell"}]`, "[" + user + "]",
			[]string{"reasoning", "message", "function_call"}, "shell", `{"command":["bash","-lc","echo mock-tool-output"]}`, Default.Preface},
		{"after the output", `[]`, "[" + user + `,{"type":"function_call","call_id":"c","name":"shell","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"x"}]`,
			[]string{"message"}, "", "", Default.Final},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := `{"model":"m","stream":true,"include":["reasoning.encrypted_content"],"tools":` + c.tools + `,"input":` + c.input + `}`
			resp, err := http.Post(s.URL+"/v1/responses", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var names []string
			var done []ResponsesItem
			var usage map[string]any
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				line := sc.Text()
				if n, ok := strings.CutPrefix(line, "event: "); ok {
					names = append(names, n)
				}
				data, ok := strings.CutPrefix(line, "data: ")
				if !ok {
					continue
				}
				var ev struct {
					Type     string        `json:"type"`
					Item     ResponsesItem `json:"item"`
					Response struct {
						Usage map[string]any `json:"usage"`
					} `json:"response"`
				}
				if err := json.Unmarshal([]byte(data), &ev); err != nil {
					t.Fatalf("event %q: %v", data, err)
				}
				switch ev.Type {
				case "response.output_item.done":
					done = append(done, ev.Item)
				case "response.completed":
					usage = ev.Response.Usage
				}
			}
			if names[0] != "response.created" || names[len(names)-1] != "response.completed" {
				t.Errorf("events %v", names)
			}
			var types []string
			for _, it := range done {
				types = append(types, it.Type)
			}
			if strings.Join(types, ",") != strings.Join(c.wantTypes, ",") {
				t.Fatalf("items %v, want %v", types, c.wantTypes)
			}
			var text, tool, args string
			var resent []string
			for _, it := range done {
				switch it.Type {
				case "message":
					text = ResponsesText(it.Content)
				case "function_call":
					tool, args = it.Name, it.Arguments
					resent = append(resent, `{"type":"function_call_output","call_id":"`+it.CallID+`","output":"x"}`)
				}
				raw, _ := json.Marshal(it)
				resent = append(resent, string(raw))
			}
			if text != c.wantText || tool != c.wantTool || args != c.wantArgs {
				t.Errorf("text %q tool %q args %s, want %q %q %s", text, tool, args, c.wantText, c.wantTool, c.wantArgs)
			}
			if usage["input_tokens"] != float64(Default.InputTokens) || usage["output_tokens"] != float64(Default.OutputTokens) {
				t.Errorf("usage %v", usage)
			}
			// The items resent as the next request's input (the output
			// after its call) pass the linter: the encrypted content is
			// the mock's own.
			var in []string
			for _, r := range resent {
				if strings.Contains(r, "function_call_output") {
					continue
				}
				in = append(in, r)
			}
			for _, r := range resent {
				if strings.Contains(r, "function_call_output") {
					in = append(in, r)
				}
			}
			next := `{"model":"m","include":["reasoning.encrypted_content"],"input":[` + user + "," + strings.Join(in, ",") + `]}`
			if c.wantTool != "" {
				if p := LintResponses([]byte(next), nil); len(p) != 0 {
					t.Errorf("the played turn fails the linter: %q", p)
				}
			}
		})
	}
	var buf bytes.Buffer
	resp, err := http.Get(s.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = buf.ReadFrom(resp.Body)
	resp.Body.Close()
	if !json.Valid(buf.Bytes()) {
		t.Errorf("/v1/models: %q", buf.String())
	}
}
