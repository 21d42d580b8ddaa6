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

// Responses returns the routes of the OpenAI Responses API as Codex speaks
// it: POST /v1/responses (streamed), /v1/responses/compact (a remote
// compaction, answered with the history it was sent), and GET /v1/models
// (the model list Codex refreshes, answered with no models so Codex keeps
// its built-in metadata). The more specific routes come first, as routes
// match by suffix in order.
func Responses() []Route {
	return []Route{
		{Suffix: "/responses/compact", Handler: responsesCompact},
		{Suffix: "/responses", Handler: responsesCreate},
		{Suffix: "/models", Handler: responsesModels},
	}
}

// ResponsesRequest is the part of a Responses request the mock and its
// linter read.
type ResponsesRequest struct {
	Model        string            `json:"model"`
	Instructions string            `json:"instructions"`
	Input        []json.RawMessage `json:"input"`
	Tools        []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
	Include []string `json:"include"`
	Stream  bool     `json:"stream"`
}

// ResponsesItem is one item of a request's input or a reply's output,
// with the members the mock and the linter read.
type ResponsesItem struct {
	Type             string          `json:"type"`
	ID               string          `json:"id,omitempty"`
	Role             string          `json:"role,omitempty"`
	Content          json.RawMessage `json:"content,omitempty"`
	Summary          json.RawMessage `json:"summary,omitempty"`
	EncryptedContent *string         `json:"encrypted_content,omitempty"`
	CallID           string          `json:"call_id,omitempty"`
	Name             string          `json:"name,omitempty"`
	Arguments        string          `json:"arguments,omitempty"`
	Input            json.RawMessage `json:"input,omitempty"`
	Output           json.RawMessage `json:"output,omitempty"`
}

// ParseResponses reads a Responses request body and its input items.
func ParseResponses(body []byte) (ResponsesRequest, []ResponsesItem, error) {
	var req ResponsesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return req, nil, fmt.Errorf("a Responses request: %w", err)
	}
	items := make([]ResponsesItem, len(req.Input))
	for i, raw := range req.Input {
		if err := json.Unmarshal(raw, &items[i]); err != nil {
			return req, nil, fmt.Errorf("input item %d: %w", i, err)
		}
	}
	return req, items, nil
}

// responsesKey signs the encrypted_content the mock issues, so the linter
// can tell the mock's own reasoning from one another service (or nobody)
// issued, as the real service does with its own key.
var responsesKey = []byte("sesstool mockmodel responses reasoning key")

// EncryptedReasoning is the encrypted_content the mock issues for a
// reasoning item: "mock-enc:" and an HMAC of the item's id and summary.
func EncryptedReasoning(id, summary string) string {
	m := hmac.New(sha256.New, responsesKey)
	m.Write([]byte(id + "\x00" + summary))
	return "mock-enc:" + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// responseSeq numbers the mock's responses and items across servers.
var responseSeq atomic.Int64

// responsesStep picks the script's step: after a tool's output, the final
// text; otherwise the reply that reasons and calls the tool.
func responsesStep(items []ResponsesItem) Step {
	if n := len(items); n > 0 {
		switch items[n-1].Type {
		case "function_call_output", "custom_tool_call_output":
			return StepFinal
		}
	}
	return StepToolCall
}

// shellTool is the name and arguments of the call that runs command with
// the shell tool the request offers: exec_command (Codex 0.1xx's unified
// exec, {"cmd": …}) or shell ({"command": ["bash","-lc", …]}).
func shellTool(req ResponsesRequest, command string) (name, args string) {
	for _, t := range req.Tools {
		if t.Name == "exec_command" {
			b, _ := json.Marshal(map[string]string{"cmd": command})
			return t.Name, string(b)
		}
	}
	for _, t := range req.Tools {
		if t.Name == "shell" || t.Name == "shell_command" {
			b, _ := json.Marshal(map[string]any{"command": []string{"bash", "-lc", command}})
			if t.Name == "shell_command" {
				b, _ = json.Marshal(map[string]string{"command": command})
			}
			return t.Name, string(b)
		}
	}
	b, _ := json.Marshal(map[string]string{"cmd": command})
	return "exec_command", string(b)
}

func responsesCreate(s *Server, w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost {
		responsesModels(s, w, r, body)
		return
	}
	req, items, err := ParseResponses(body)
	if err != nil {
		http.Error(w, "mockmodel: "+err.Error(), http.StatusBadRequest)
		return
	}
	n := responseSeq.Add(1)
	rid := fmt.Sprintf("resp_mock%d", n)
	var out []map[string]any
	text := func(id, t string) map[string]any {
		return map[string]any{"type": "message", "id": id, "role": "assistant", "status": "completed",
			"content": []map[string]any{{"type": "output_text", "text": t, "annotations": []any{}}}}
	}
	reasoningTokens := 0
	switch responsesStep(items) {
	case StepFinal:
		out = append(out, text(fmt.Sprintf("msg_mock%d_final", n), s.Script.Final))
	default:
		rsID := fmt.Sprintf("rs_mock%d", n)
		out = append(out, map[string]any{"type": "reasoning", "id": rsID,
			"summary":           []map[string]any{{"type": "summary_text", "text": s.Script.Thinking}},
			"encrypted_content": EncryptedReasoning(rsID, s.Script.Thinking)})
		out = append(out, text(fmt.Sprintf("msg_mock%d", n), s.Script.Preface))
		name, args := shellTool(req, s.Script.Command)
		out = append(out, map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_mock%d", n), "status": "completed",
			"call_id": fmt.Sprintf("call_mock%d", n), "name": name, "arguments": args})
		reasoningTokens = s.Script.OutputTokens / 4
	}
	resp := func(status string, output []map[string]any) map[string]any {
		m := map[string]any{"id": rid, "object": "response", "status": status, "model": req.Model, "output": output}
		if status == "completed" {
			m["usage"] = map[string]any{
				"input_tokens": s.Script.InputTokens, "input_tokens_details": map[string]any{"cached_tokens": 0},
				"output_tokens": s.Script.OutputTokens, "output_tokens_details": map[string]any{"reasoning_tokens": reasoningTokens},
				"total_tokens": s.Script.InputTokens + s.Script.OutputTokens,
			}
		}
		return m
	}
	sse := NewSSE(w)
	seq := 0
	ev := func(name string, m map[string]any) {
		m["type"], m["sequence_number"] = name, seq
		seq++
		sse.Event(name, m)
	}
	ev("response.created", map[string]any{"response": resp("in_progress", []map[string]any{})})
	for i, it := range out {
		ev("response.output_item.added", map[string]any{"output_index": i, "item": it})
		if it["type"] == "message" {
			t := it["content"].([]map[string]any)[0]["text"].(string)
			ev("response.output_text.delta", map[string]any{"output_index": i, "content_index": 0, "item_id": it["id"], "delta": t})
		}
		ev("response.output_item.done", map[string]any{"output_index": i, "item": it})
	}
	ev("response.completed", map[string]any{"response": resp("completed", out)})
}

// responsesCompact answers a remote compaction with the input it was sent
// (Codex replaces its history with the output), so a compacted session
// still carries its conversation.
func responsesCompact(s *Server, w http.ResponseWriter, r *http.Request, body []byte) {
	var req ResponsesRequest
	_ = json.Unmarshal(body, &req)
	out := req.Input
	if out == nil {
		out = []json.RawMessage{}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"output": out})
}

// responsesModels answers the model list with no models: Codex then keeps
// the metadata it ships with.
func responsesModels(s *Server, w http.ResponseWriter, r *http.Request, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"object":"list","data":[],"models":[]}`))
}

// ResponsesText is the text of a message item's content: a string, or
// the input_text/output_text parts joined.
func ResponsesText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(content, &parts)
	var out []string
	for _, p := range parts {
		if p.Text != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// ResponsesOutputText is a function call output's text: a string, or a
// list of content items (input_text …) whose texts are joined.
func ResponsesOutputText(out json.RawMessage) string {
	var obj struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(out, &obj) == nil && obj.Content != nil {
		return ResponsesText(obj.Content)
	}
	return ResponsesText(out)
}
