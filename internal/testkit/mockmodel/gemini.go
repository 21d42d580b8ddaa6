package mockmodel

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Gemini serves the Gemini API as Gemini CLI calls it:
// models/MODEL:generateContent, models/MODEL:streamGenerateContent (SSE
// with alt=sse) and models/MODEL:countTokens, under any base path
// (/v1beta/...). Anything else gets the server's empty answer.
func Gemini() []Route {
	return []Route{
		{Suffix: ":streamGenerateContent", Handler: geminiGenerate},
		{Suffix: ":generateContent", Handler: geminiGenerate},
		{Suffix: ":countTokens", Handler: geminiCountTokens},
	}
}

// GeminiRequest is the part of a generateContent request the mock reads.
type GeminiRequest struct {
	Contents          []GeminiContent       `json:"contents"`
	SystemInstruction *GeminiContent        `json:"systemInstruction"`
	Tools             []GeminiTool          `json:"tools"`
	GenerationConfig  *GeminiGenerateConfig `json:"generationConfig"`
}

// GeminiContent is one turn: role "user" or "model", and its parts.
type GeminiContent struct {
	Role  string       `json:"role"`
	Parts []GeminiPart `json:"parts"`
}

// GeminiPart is one part of a turn: a text (a thought when Thought is
// set), a function call or a function's response. ThoughtSignature is
// the opaque token the service puts on a part and wants back unchanged.
type GeminiPart struct {
	Text             string                  `json:"text,omitempty"`
	Thought          bool                    `json:"thought,omitempty"`
	ThoughtSignature string                  `json:"thoughtSignature,omitempty"`
	FunctionCall     *GeminiFunctionCall     `json:"functionCall,omitempty"`
	FunctionResponse *GeminiFunctionResponse `json:"functionResponse,omitempty"`
}

// GeminiFunctionCall is a model's call of a declared function.
type GeminiFunctionCall struct {
	ID   string         `json:"id,omitempty"`
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// GeminiFunctionResponse is the agent's answer to a function call.
type GeminiFunctionResponse struct {
	ID       string         `json:"id,omitempty"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
}

// GeminiTool holds the functions an agent declares. Gemini CLI gives a
// function's schema as parametersJsonSchema, older clients as parameters.
type GeminiTool struct {
	FunctionDeclarations []struct {
		Name                 string          `json:"name"`
		Description          string          `json:"description"`
		Parameters           json.RawMessage `json:"parameters"`
		ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
	} `json:"functionDeclarations"`
}

// GeminiGenerateConfig is what the mock reads of generationConfig: a JSON
// answer's schema (a side request's) and whether thoughts are wanted.
type GeminiGenerateConfig struct {
	ResponseMimeType   string          `json:"responseMimeType"`
	ResponseSchema     json.RawMessage `json:"responseSchema"`
	ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
	ThinkingConfig     *struct {
		IncludeThoughts bool `json:"includeThoughts"`
	} `json:"thinkingConfig"`
}

// ParseGemini decodes a generateContent request body.
func ParseGemini(body []byte) (GeminiRequest, error) {
	var req GeminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return req, fmt.Errorf("gemini request: %w", err)
	}
	return req, nil
}

// functions are the request's declared functions as Chat tools, so
// ShellTool picks the shell one the same way in every protocol.
func (r GeminiRequest) functions() []ChatTool {
	var out []ChatTool
	for _, t := range r.Tools {
		for _, d := range t.FunctionDeclarations {
			var c ChatTool
			c.Type = "function"
			c.Function.Name = d.Name
			c.Function.Parameters = d.ParametersJSONSchema
			if len(c.Function.Parameters) == 0 {
				c.Function.Parameters = lowerTypes(d.Parameters)
			}
			out = append(out, c)
		}
	}
	return out
}

// GeminiSide says whether a request is the agent's own side request (a
// router's JSON question, a summary) rather than a conversation turn: it
// declares no functions.
func GeminiSide(req GeminiRequest) bool { return len(req.functions()) == 0 }

// GeminiStep is the script's reply to a request: Final once the last turn
// answers a function call, else the tool call.
func GeminiStep(req GeminiRequest) Step {
	if n := len(req.Contents); n > 0 {
		for _, p := range req.Contents[n-1].Parts {
			if p.FunctionResponse != nil {
				return StepFinal
			}
		}
	}
	return StepToolCall
}

var geminiKey = []byte("sesstool mockmodel gemini thought signature key")

// GeminiSignature is a thought signature the mock issues: a random nonce
// and its HMAC, so the linter can tell the mock's own from any other
// without remembering what it issued.
func GeminiSignature() string {
	nonce := make([]byte, 12)
	_, _ = rand.Read(nonce)
	m := hmac.New(sha256.New, geminiKey)
	m.Write(nonce)
	return base64.StdEncoding.EncodeToString(append(nonce, m.Sum(nil)[:16]...))
}

// GeminiSignedByMock says whether sig is a signature the mock issued.
func GeminiSignedByMock(sig string) bool {
	b, err := base64.StdEncoding.DecodeString(sig)
	if err != nil || len(b) != 28 {
		return false
	}
	m := hmac.New(sha256.New, geminiKey)
	m.Write(b[:12])
	return hmac.Equal(b[12:], m.Sum(nil)[:16])
}

// geminiChunk is one streamed piece of a reply: the parts it adds and, on
// the last, the finish reason and usage.
type geminiChunk struct {
	parts  []GeminiPart
	finish string
}

// geminiReply is the script's reply to req as the chunks of a stream, or
// an error for a request the script cannot play.
func (s *Server) geminiReply(req GeminiRequest) ([]geminiChunk, error) {
	if GeminiSide(req) {
		return []geminiChunk{{parts: []GeminiPart{{Text: geminiSideAnswer(req)}}, finish: "STOP"}}, nil
	}
	if GeminiStep(req) == StepFinal {
		return []geminiChunk{{parts: []GeminiPart{{Text: s.Script.Final}}, finish: "STOP"}}, nil
	}
	name, args, err := ShellTool(req.functions(), s.Script.Command)
	if err != nil {
		return nil, err
	}
	var a map[string]any
	_ = json.Unmarshal([]byte(args), &a)
	var chunks []geminiChunk
	if req.GenerationConfig != nil && req.GenerationConfig.ThinkingConfig != nil && req.GenerationConfig.ThinkingConfig.IncludeThoughts && s.Script.Thinking != "" {
		chunks = append(chunks, geminiChunk{parts: []GeminiPart{{Text: s.Script.Thinking, Thought: true}}})
	}
	chunks = append(chunks,
		geminiChunk{parts: []GeminiPart{{Text: s.Script.Preface}}},
		// Gemini 3 signs the first function call of a turn; the client
		// must send the signature back with it.
		geminiChunk{parts: []GeminiPart{{FunctionCall: &GeminiFunctionCall{Name: name, Args: a}, ThoughtSignature: GeminiSignature()}}, finish: "STOP"},
	)
	return chunks, nil
}

// geminiSideAnswer is a side request's text: JSON of the schema it asks
// for (Gemini CLI's model router wants a complexity_score of at least 1),
// else a short title.
func geminiSideAnswer(req GeminiRequest) string {
	if g := req.GenerationConfig; g != nil {
		// Gemini CLI 0.61 gives responseJsonSchema in the upper-case
		// types of responseSchema ("OBJECT")
		raw := g.ResponseJSONSchema
		if len(raw) == 0 {
			raw = g.ResponseSchema
		}
		raw = lowerTypes(raw)
		var schema map[string]any
		if json.Unmarshal(raw, &schema) == nil && schema != nil {
			b, _ := json.Marshal(sampleWithin(schema))
			return string(b)
		}
		if g.ResponseMimeType == "application/json" {
			return "{}"
		}
	}
	return "Mock session"
}

// sampleWithin is sample (a value of the schema) with every number its
// minimum, else 1: Gemini CLI's router asks for a complexity_score "from
// 1-100" with no minimum in the schema and refuses 0.
func sampleWithin(schema map[string]any) any {
	v := sample(schema)
	switch x := v.(type) {
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		for name := range x {
			if p, ok := props[name].(map[string]any); ok {
				x[name] = sampleWithin(p)
			}
		}
	case int:
		if m, ok := schema["minimum"].(float64); ok {
			return int(m)
		}
		return 1
	}
	return v
}

// lowerTypes turns the OpenAPI-style upper-case types of a Gemini
// responseSchema or parameters ("OBJECT", "STRING") into JSON Schema's.
func lowerTypes(raw json.RawMessage) json.RawMessage {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if t, ok := x["type"].(string); ok {
				x["type"] = strings.ToLower(t)
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
	b, _ := json.Marshal(v)
	return b
}

func geminiUsage(s *Server, thoughts bool) map[string]int {
	u := map[string]int{"promptTokenCount": s.Script.InputTokens, "candidatesTokenCount": s.Script.OutputTokens}
	total := s.Script.InputTokens + s.Script.OutputTokens
	if thoughts {
		n := len(strings.Fields(s.Script.Thinking))
		u["thoughtsTokenCount"] = n
		total += n
	}
	u["totalTokenCount"] = total
	return u
}

func geminiResponse(parts []GeminiPart, finish, model string, usage map[string]int) map[string]any {
	cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
	if finish != "" {
		cand["finishReason"] = finish
	}
	out := map[string]any{"candidates": []any{cand}, "modelVersion": model, "responseId": "mock-gemini"}
	if usage != nil {
		out["usageMetadata"] = usage
	}
	return out
}

// geminiModel is the MODEL of .../models/MODEL:method.
func geminiModel(path string) string {
	m := path[strings.LastIndex(path, "/")+1:]
	if i := strings.IndexByte(m, ':'); i >= 0 {
		m = m[:i]
	}
	return m
}

// geminiGenerate answers generateContent with the whole reply, and
// streamGenerateContent with one SSE event per chunk (alt=sse; without
// it the service sends a JSON array of the same responses).
func geminiGenerate(s *Server, w http.ResponseWriter, r *http.Request, body []byte) {
	req, err := ParseGemini(body)
	if err != nil {
		geminiError(w, http.StatusBadRequest, err.Error())
		return
	}
	chunks, err := s.geminiReply(req)
	if err != nil {
		geminiError(w, http.StatusBadRequest, err.Error())
		return
	}
	thoughts := false
	for _, c := range chunks {
		for _, p := range c.parts {
			thoughts = thoughts || p.Thought
		}
	}
	usage := geminiUsage(s, thoughts)
	model := geminiModel(r.URL.Path)
	if !strings.HasSuffix(r.URL.Path, ":streamGenerateContent") {
		var parts []GeminiPart
		for _, c := range chunks {
			parts = append(parts, c.parts...)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(geminiResponse(parts, "STOP", model, usage))
		return
	}
	var resps []map[string]any
	for i, c := range chunks {
		var u map[string]int
		if i == len(chunks)-1 {
			u = usage
		}
		resps = append(resps, geminiResponse(c.parts, c.finish, model, u))
	}
	if r.URL.Query().Get("alt") != "sse" {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resps)
		return
	}
	e := NewSSE(w)
	for _, resp := range resps {
		e.Event("", resp)
	}
}

// geminiCountTokens answers countTokens with a count by words, enough for
// an agent that checks its context size.
func geminiCountTokens(s *Server, w http.ResponseWriter, r *http.Request, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"totalTokens":%d}`, len(strings.Fields(string(body))))
}

func geminiError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": code, "message": "mockmodel: " + msg, "status": "INVALID_ARGUMENT"}})
	_, _ = w.Write(b)
}
