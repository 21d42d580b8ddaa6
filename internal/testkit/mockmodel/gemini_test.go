package mockmodel

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// geminiTools declares Gemini CLI's shell tool (run_shell_command, its
// schema as parametersJsonSchema) beside another.
const geminiTools = `[{"functionDeclarations":[` +
	`{"name":"read_file","parametersJsonSchema":{"type":"object","properties":{"absolute_path":{"type":"string"}},"required":["absolute_path"]}},` +
	`{"name":"run_shell_command","parametersJsonSchema":{"type":"object","properties":{"command":{"type":"string"},"description":{"type":"string"},"dir_path":{"type":"string"}},"required":["command"]}}]}]`

// The mock plays the script in the Gemini API: a thought where thoughts
// are asked for, the preface, and a signed call of the shell tool with its
// command argument, usage on the last chunk; Final after a function
// response; JSON of the schema a router asks for (a complexity_score of
// at least 1); the whole reply from generateContent; a token count.
func TestGeminiPlaysScript(t *testing.T) {
	s := Start(t, Default, Gemini()...)
	thinking := `"generationConfig":{"thinkingConfig":{"includeThoughts":true}}`
	call := `{"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{"command":"x"}},"thoughtSignature":"` + GeminiSignature() + `"}]}`
	cases := []struct {
		name, path, body string
		want, not        []string
	}{
		{"tool call with thought", "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
			`{"contents":[{"role":"user","parts":[{"text":"go"}]}],"tools":` + geminiTools + `,` + thinking + `}`,
			[]string{`data: {"candidates":[{"content":{"parts":[{"text":"The user wants a greeting printed; a shell command will do.","thought":true}]`,
				`"text":"I will run a command."`, `{"thoughtSignature":"`, `"functionCall":{"name":"run_shell_command","args":{"command":"echo mock-tool-output"}}}`,
				`"finishReason":"STOP"`, `"usageMetadata":{"candidatesTokenCount":20,"promptTokenCount":100,"thoughtsTokenCount":11,"totalTokenCount":131}`, `"modelVersion":"gemini-2.5-pro"`},
			nil},
		{"tool call without thoughts asked", "/v1beta/models/m:streamGenerateContent?alt=sse",
			`{"contents":[{"role":"user","parts":[{"text":"go"}]}],"tools":` + geminiTools + `}`,
			[]string{`"functionCall":{"name":"run_shell_command"`, `"usageMetadata":{"candidatesTokenCount":20,"promptTokenCount":100,"totalTokenCount":120}`},
			[]string{`"thought":true`}},
		{"final", "/v1beta/models/m:streamGenerateContent?alt=sse",
			`{"contents":[{"role":"user","parts":[{"text":"go"}]},` + call + `,{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"x"}}}]}],"tools":` + geminiTools + `}`,
			[]string{`"text":"The command printed mock-tool-output. Done."`, `"finishReason":"STOP"`},
			[]string{"functionCall"}},
		{"router JSON question as Gemini CLI 0.61 asks it", "/v1beta/models/gemini-3.5-flash-lite:generateContent",
			`{"contents":[{"role":"user","parts":[{"text":"print a greeting"}]}],"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":{"type":"OBJECT","properties":{"complexity_reasoning":{"type":"STRING"},"complexity_score":{"type":"INTEGER","description":"Complexity score from 1-100."}},"required":["complexity_reasoning","complexity_score"]},"thinkingConfig":{"includeThoughts":true}}}`,
			[]string{`"text":"{\"complexity_reasoning\":\"mock\",\"complexity_score\":1}"`}, []string{`"thought":true`}},
		{"JSON question with a minimum", "/v1beta/models/flash-lite:generateContent",
			`{"contents":[{"role":"user","parts":[{"text":"classify"}]}],"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":{"type":"object","properties":{"reasoning":{"type":"string"},"complexity_score":{"type":"integer","minimum":5,"maximum":100}},"required":["reasoning","complexity_score"]}}}`,
			[]string{`"text":"{\"complexity_score\":5,\"reasoning\":\"mock\"}"`}, nil},
		{"OpenAPI-style schema", "/v1beta/models/m:generateContent",
			`{"contents":[{"role":"user","parts":[{"text":"next?"}]}],"generationConfig":{"responseMimeType":"application/json","responseSchema":{"type":"OBJECT","properties":{"next_speaker":{"type":"STRING","enum":["user","model"]}}}}}`,
			[]string{`"text":"{\"next_speaker\":\"user\"}"`}, nil},
		{"whole reply", "/v1beta/models/m:generateContent",
			`{"contents":[{"role":"user","parts":[{"text":"go"}]}],"tools":` + geminiTools + `}`,
			[]string{`{"candidates":[{"content":{"parts":[{"text":"I will run a command."},{"thoughtSignature":`, `"usageMetadata"`}, []string{"data:"}},
		{"stream without alt=sse is a JSON array", "/v1beta/models/m:streamGenerateContent",
			`{"contents":[{"role":"user","parts":[{"text":"go"}]}],"tools":` + geminiTools + `}`,
			[]string{`[{"candidates"`}, []string{"data:"}},
		{"count tokens", "/v1beta/models/m:countTokens", `{"contents":[{"role":"user","parts":[{"text":"a b"}]}]}`,
			[]string{`{"totalTokens":`}, nil},
		{"no shell tool", "/v1beta/models/m:streamGenerateContent?alt=sse",
			`{"contents":[{"role":"user","parts":[{"text":"go"}]}],"tools":[{"functionDeclarations":[{"name":"read_file","parametersJsonSchema":{}}]}]}`,
			[]string{`"status":"INVALID_ARGUMENT"`, "no shell tool"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := postJSON(s.URL+c.path, c.body)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(resp, w) {
					t.Errorf("reply lacks %s:\n%s", w, resp)
				}
			}
			for _, w := range c.not {
				if strings.Contains(resp, w) {
					t.Errorf("reply has %s:\n%s", w, resp)
				}
			}
		})
	}
}

// The signature on the mock's call is one the linter accepts: the reply
// played back as the next request lints clean.
func TestGeminiSignatureRoundTrip(t *testing.T) {
	s := Start(t, Default, Gemini()...)
	resp, err := http.Post(s.URL+"/v1beta/models/m:generateContent", "application/json",
		strings.NewReader(`{"contents":[{"role":"user","parts":[{"text":"go"}]}],"tools":`+geminiTools+`}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Candidates []struct{ Content GeminiContent } `json:"candidates"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Candidates) != 1 {
		t.Fatalf("reply: %v %+v", err, out)
	}
	model := out.Candidates[0].Content
	req := GeminiRequest{Contents: []GeminiContent{
		{Role: "user", Parts: []GeminiPart{{Text: "go"}}},
		model,
		{Role: "user", Parts: []GeminiPart{{FunctionResponse: &GeminiFunctionResponse{Name: "run_shell_command", Response: map[string]any{"output": "x"}}}}},
	}}
	body, _ := json.Marshal(req)
	if probs := LintGemini(body); len(probs) != 0 {
		t.Errorf("the mock's own reply played back: %v", probs)
	}
	if GeminiStep(req) != StepFinal {
		t.Errorf("a request ending in a function response is not the final step")
	}
}
