package mockmodel

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

// Anthropic returns the routes of the Anthropic Messages API: /v1/messages
// (streamed or not) and /v1/messages/count_tokens. The more specific
// count_tokens route comes first, as routes match by suffix in order.
func Anthropic() []Route {
	return []Route{
		{Suffix: "/v1/messages/count_tokens", Handler: anthropicCountTokens},
		{Suffix: "/v1/messages", Handler: anthropicMessages},
	}
}

// AnthropicRequest is the part of a Messages request the mock and its
// linter read.
type AnthropicRequest struct {
	Model     string                  `json:"model"`
	System    json.RawMessage         `json:"system"`
	Messages  []AnthropicMessage      `json:"messages"`
	Tools     []struct{ Name string } `json:"tools"`
	Stream    bool                    `json:"stream"`
	MaxTokens int                     `json:"max_tokens"`
	Thinking  *struct{ Type string }  `json:"thinking"`
	// A structured-output request names its JSON Schema in one of these,
	// depending on the API version the agent speaks.
	OutputFormat *anthropicFormat `json:"output_format"`
	OutputConfig *struct {
		Format *anthropicFormat `json:"format"`
	} `json:"output_config"`
}

type anthropicFormat struct {
	Type   string          `json:"type"`
	Schema json.RawMessage `json:"schema"`
}

// AnthropicMessage is one message of a request; Content is a string or
// a list of blocks, normalised to blocks by Blocks.
type AnthropicMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// AnthropicBlock is one content block of a request's message.
type AnthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	Thinking  *string         `json:"thinking,omitempty"`
	Signature *string         `json:"signature,omitempty"`
	Data      string          `json:"data,omitempty"` // redacted_thinking
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	// Content of a tool_result: a string or a list of blocks.
	Content json.RawMessage `json:"content,omitempty"`
}

// Blocks returns a message's content as blocks: a string content is one
// text block.
func (m AnthropicMessage) Blocks() ([]AnthropicBlock, error) {
	c := strings.TrimSpace(string(m.Content))
	if strings.HasPrefix(c, `"`) {
		var s string
		if err := json.Unmarshal(m.Content, &s); err != nil {
			return nil, err
		}
		return []AnthropicBlock{{Type: "text", Text: s}}, nil
	}
	var bs []AnthropicBlock
	if c == "" || c == "null" {
		return nil, nil
	}
	err := json.Unmarshal(m.Content, &bs)
	return bs, err
}

// ResultText is a tool_result block's text: its string content, or its
// text blocks joined by newlines.
func (b AnthropicBlock) ResultText() string {
	c := strings.TrimSpace(string(b.Content))
	if strings.HasPrefix(c, `"`) {
		var s string
		_ = json.Unmarshal(b.Content, &s)
		return s
	}
	var bs []AnthropicBlock
	_ = json.Unmarshal(b.Content, &bs)
	var parts []string
	for _, x := range bs {
		if x.Type == "text" {
			parts = append(parts, x.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ParseAnthropic decodes a Messages request body.
func ParseAnthropic(body []byte) (AnthropicRequest, error) {
	var r AnthropicRequest
	if err := json.Unmarshal(body, &r); err != nil {
		return r, fmt.Errorf("mockmodel: decoding a Messages request: %w", err)
	}
	return r, nil
}

// mockSigningKey signs the thinking the mock issues. The linter accepts
// a thinking block only with a signature made under it, as the real
// service accepts only the signatures it issued itself.
var mockSigningKey = []byte("sesstool mockmodel thinking key")

// Sign is the signature the mock gives a thinking text: an HMAC of the
// text, so it is bound to the very text it came with.
func Sign(thinking string) string {
	m := hmac.New(sha256.New, mockSigningKey)
	m.Write([]byte(thinking))
	return "mock1:" + base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// SignedByMock says whether sig is the mock's signature of thinking.
func SignedByMock(thinking, sig string) bool {
	return hmac.Equal([]byte(sig), []byte(Sign(thinking)))
}

// ToolUseID is the id of the n-th tool call the mock issues; the ids are
// unique per server as Anthropic's are.
var anthropicSeq atomic.Int64

func nextAnthropicID(prefix string) string {
	return fmt.Sprintf("%s_mock%020d", prefix, anthropicSeq.Add(1))
}

// anthropicReply is the content of one reply, in the API's block shape.
type anthropicReply struct {
	blocks     []map[string]any
	stopReason string
}

// AnthropicMainTool is the shell tool the script calls: Claude Code's.
const AnthropicMainTool = "Bash"

// reply chooses what a request gets. A request offering the shell tool is
// the agent's own conversation and plays the script; any other is a side
// request (a title, a topic, a quota check, a classifier) and gets a
// short answer of the shape it asks for.
func (s *Server) anthropicReply(req AnthropicRequest) anthropicReply {
	if !req.offers(AnthropicMainTool) {
		return anthropicReply{blocks: []map[string]any{{"type": "text", "text": sideAnswer(req)}}, stopReason: "end_turn"}
	}
	sc := s.Script
	if anthropicStep(req) == StepFinal {
		return anthropicReply{blocks: []map[string]any{{"type": "text", "text": sc.Final}}, stopReason: "end_turn"}
	}
	var bs []map[string]any
	if sc.Thinking != "" && req.Thinking != nil && req.Thinking.Type != "disabled" {
		bs = append(bs, map[string]any{"type": "thinking", "thinking": sc.Thinking, "signature": Sign(sc.Thinking)})
	}
	if sc.Preface != "" {
		bs = append(bs, map[string]any{"type": "text", "text": sc.Preface})
	}
	bs = append(bs, map[string]any{
		"type": "tool_use", "id": nextAnthropicID("toolu"), "name": AnthropicMainTool,
		"input": map[string]any{"command": sc.Command, "description": "Run the scripted command"},
	})
	return anthropicReply{blocks: bs, stopReason: "tool_use"}
}

func (r AnthropicRequest) offers(tool string) bool {
	for _, t := range r.Tools {
		if t.Name == tool {
			return true
		}
	}
	return false
}

// anthropicStep is the script's step for a request: Final when its
// conversation ends in a tool result.
func anthropicStep(req AnthropicRequest) Step {
	if len(req.Messages) == 0 {
		return StepToolCall
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role != "user" {
		return StepToolCall
	}
	bs, _ := last.Blocks()
	for _, b := range bs {
		if b.Type == "tool_result" {
			return StepFinal
		}
	}
	return StepToolCall
}

// sideAnswer is the text a side request gets: JSON of the schema it
// names, the rest of a prefilled JSON answer, or a short title.
func sideAnswer(req AnthropicRequest) string {
	var f *anthropicFormat
	if req.OutputFormat != nil {
		f = req.OutputFormat
	} else if req.OutputConfig != nil {
		f = req.OutputConfig.Format
	}
	if f != nil && len(f.Schema) > 0 {
		var schema map[string]any
		if json.Unmarshal(f.Schema, &schema) == nil {
			b, _ := json.Marshal(sample(schema))
			return string(b)
		}
	}
	// A prefilled answer: the request ends in an assistant turn the reply
	// continues. A "{" prefill wants the rest of a JSON object.
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == "assistant" {
		bs, _ := req.Messages[n-1].Blocks()
		if len(bs) > 0 && strings.HasSuffix(strings.TrimSpace(bs[len(bs)-1].Text), "{") {
			return `"title": "Mock session", "isNewTopic": false}`
		}
		return "mock"
	}
	return "Mock session"
}

// sample is a value that satisfies a (simple) JSON Schema: every required
// property present, of its type.
func sample(schema map[string]any) any {
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	if c, ok := schema["const"]; ok {
		return c
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := schema[k].([]any); ok && len(alts) > 0 {
			if m, ok := alts[0].(map[string]any); ok {
				return sample(m)
			}
		}
	}
	t, _ := schema["type"].(string)
	if ts, ok := schema["type"].([]any); ok && len(ts) > 0 {
		t, _ = ts[0].(string)
	}
	switch t {
	case "object", "":
		out := map[string]any{}
		props, _ := schema["properties"].(map[string]any)
		for name, p := range props {
			if m, ok := p.(map[string]any); ok {
				out[name] = sample(m)
			}
		}
		return out
	case "array":
		return []any{}
	case "string":
		return "mock"
	case "boolean":
		return false
	case "integer", "number":
		return 0
	case "null":
		return nil
	}
	return nil
}

// anthropicMessages answers /v1/messages, streamed when asked.
func anthropicMessages(s *Server, w http.ResponseWriter, r *http.Request, body []byte) {
	anthropicMessagesWith(s, w, body, s.anthropicReply)
}

// anthropicMessagesWith answers /v1/messages with the reply choose picks,
// streamed when asked.
func anthropicMessagesWith(s *Server, w http.ResponseWriter, body []byte, choose func(AnthropicRequest) anthropicReply) {
	req, err := ParseAnthropic(body)
	if err != nil {
		anthropicError(w, http.StatusBadRequest, err.Error())
		return
	}
	rep := choose(req)
	model := req.Model
	if model == "" {
		model = "claude-mock"
	}
	id := nextAnthropicID("msg")
	usage := map[string]any{
		"input_tokens": s.Script.InputTokens, "output_tokens": s.Script.OutputTokens,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
	}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model,
			"content": rep.blocks, "stop_reason": rep.stopReason, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	e := NewSSE(w)
	startUsage := map[string]any{"input_tokens": s.Script.InputTokens, "output_tokens": 1,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	e.Event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": startUsage,
	}})
	for i, b := range rep.blocks {
		streamBlock(e, i, b)
	}
	e.Event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": rep.stopReason, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": s.Script.OutputTokens}})
	e.Event("message_stop", map[string]any{"type": "message_stop"})
}

// streamBlock streams one content block as a start, its deltas and a stop.
func streamBlock(e *SSE, i int, b map[string]any) {
	start := func(cb map[string]any) {
		e.Event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": cb})
	}
	delta := func(d map[string]any) {
		e.Event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d})
	}
	switch b["type"] {
	case "thinking":
		start(map[string]any{"type": "thinking", "thinking": "", "signature": ""})
		delta(map[string]any{"type": "thinking_delta", "thinking": b["thinking"]})
		delta(map[string]any{"type": "signature_delta", "signature": b["signature"]})
	case "text":
		start(map[string]any{"type": "text", "text": ""})
		delta(map[string]any{"type": "text_delta", "text": b["text"]})
	case "tool_use":
		start(map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}})
		in, _ := json.Marshal(b["input"])
		// Two fragments, as the service splits a tool's input.
		h := len(in) / 2
		delta(map[string]any{"type": "input_json_delta", "partial_json": string(in[:h])})
		delta(map[string]any{"type": "input_json_delta", "partial_json": string(in[h:])})
	}
	e.Event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
}

// anthropicCountTokens answers /v1/messages/count_tokens with a size
// that grows with the request, as the real count does.
func anthropicCountTokens(s *Server, w http.ResponseWriter, r *http.Request, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"input_tokens": len(body)/4 + 1})
}

func anthropicError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": msg}})
}
