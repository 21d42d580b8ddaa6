package mockmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// ChatRoute serves OpenAI Chat Completions (`…/chat/completions`), the
// protocol of every provider OpenCode reaches through
// @ai-sdk/openai-compatible.
func ChatRoute() Route { return Route{Suffix: "/chat/completions", Handler: serveChat} }

// ChatRequest is the part of a Chat Completions request the mock reads.
type ChatRequest struct {
	Model    string        `json:"model"`
	Stream   bool          `json:"stream"`
	Messages []ChatMessage `json:"messages"`
	Tools    []ChatTool    `json:"tools"`
}

// ChatMessage is one message of a request. Content is a string or an
// array of parts ({type:"text", text}); Text flattens either.
type ChatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []ChatToolCall  `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
	// Reasoning as the openai-compatible provider sends a prior turn's
	// thinking back, where it does.
	ReasoningContent string `json:"reasoning_content"`
}

// ChatToolCall is an assistant message's call of a tool.
type ChatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// ChatTool is a tool the agent offers the model.
type ChatTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// Text is the message's text: the string, or its text parts joined.
func (m ChatMessage) Text() string { return strings.Join(m.Texts(), "\n") }

// Texts is the message's text parts: the string alone, or each text part.
func (m ChatMessage) Texts() []string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []string{s}
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(m.Content, &parts) != nil {
		return nil
	}
	var out []string
	for _, p := range parts {
		if p.Type == "text" {
			out = append(out, p.Text)
		}
	}
	return out
}

// ParseChat decodes a Chat Completions request body.
func ParseChat(body []byte) (ChatRequest, error) {
	var req ChatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return req, fmt.Errorf("chat request: %w", err)
	}
	return req, nil
}

// ChatStep is the script's reply to a request: Final once the
// conversation ends in a tool's result, else the tool call.
func ChatStep(req ChatRequest) Step {
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == "tool" {
		return StepFinal
	}
	return StepToolCall
}

// ChatSide says whether a request is the agent's own side request (a
// title, a summary) rather than a turn of the conversation: it offers no
// tools. OpenCode asks its small model for a title that way.
func ChatSide(req ChatRequest) bool { return len(req.Tools) == 0 }

// ChatTitle is what a side request is answered with: short and plain,
// so it is a fitting title and a harmless summary.
const ChatTitle = "Mock session"

// ShellTool finds the agent's shell tool among the request's tools: the
// one named bash or shell, else the first whose parameters have a
// command property. It returns the tool's name and its arguments for
// command, every other required string parameter filled in.
func ShellTool(tools []ChatTool, command string) (name, args string, err error) {
	pick := -1
	for i, t := range tools {
		switch strings.ToLower(t.Function.Name) {
		case "bash", "shell":
			pick = i
		}
		if pick >= 0 {
			break
		}
	}
	if pick < 0 {
		for i, t := range tools {
			if _, ok := schemaProps(t.Function.Parameters)["command"]; ok {
				pick = i
				break
			}
		}
	}
	if pick < 0 {
		return "", "", fmt.Errorf("no shell tool among %d tools", len(tools))
	}
	t := tools[pick]
	props := schemaProps(t.Function.Parameters)
	if _, ok := props["command"]; !ok {
		return "", "", fmt.Errorf("shell tool %s has no command parameter", t.Function.Name)
	}
	a := map[string]any{"command": command}
	var sch struct {
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(t.Function.Parameters, &sch)
	for _, r := range sch.Required {
		if _, done := a[r]; done {
			continue
		}
		var p struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(props[r], &p)
		switch p.Type {
		case "string":
			a[r] = "Run " + command
		case "number", "integer":
			a[r] = 60000
		case "boolean":
			a[r] = false
		default:
			return "", "", fmt.Errorf("shell tool %s: required parameter %s of type %q", t.Function.Name, r, p.Type)
		}
	}
	b, _ := json.Marshal(a)
	return t.Function.Name, string(b), nil
}

func schemaProps(raw json.RawMessage) map[string]json.RawMessage {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(raw, &s)
	return s.Properties
}

func serveChat(s *Server, w http.ResponseWriter, r *http.Request, body []byte) {
	req, err := ParseChat(body)
	if err != nil {
		http.Error(w, "mockmodel: "+err.Error(), http.StatusBadRequest)
		return
	}
	sc := s.Script
	// The id is the request's number, so a resumed session's calls do not
	// repeat the ids of the session it continues.
	id := fmt.Sprintf("chatcmpl-mock-%d", s.Count())
	var chunks []chatDelta
	finish := "stop"
	switch {
	case ChatSide(req):
		chunks = append(chunks, chatDelta{Content: ChatTitle})
	case ChatStep(req) == StepFinal:
		chunks = append(chunks, chatDelta{Content: sc.Final})
	default:
		name, args, err := ShellTool(req.Tools, sc.Command)
		if err != nil {
			http.Error(w, "mockmodel: "+err.Error(), http.StatusBadRequest)
			return
		}
		if sc.Thinking != "" {
			chunks = append(chunks, chatDelta{ReasoningContent: sc.Thinking})
		}
		chunks = append(chunks, chatDelta{Content: sc.Preface})
		call := fmt.Sprintf("call_mock_%d", s.Count())
		// The arguments come in two pieces, as a real stream splits them.
		half := len(args) / 2
		chunks = append(chunks,
			chatDelta{ToolCalls: []chatCallDelta{{Index: 0, ID: call, Type: "function", Function: &chatFnDelta{Name: name, Arguments: args[:half]}}}},
			chatDelta{ToolCalls: []chatCallDelta{{Index: 0, Function: &chatFnDelta{Arguments: args[half:]}}}})
		finish = "tool_calls"
	}
	usage := map[string]int{"prompt_tokens": sc.InputTokens, "completion_tokens": sc.OutputTokens, "total_tokens": sc.InputTokens + sc.OutputTokens}
	if !req.Stream {
		writeChatJSON(w, id, req.Model, chunks, finish, usage)
		return
	}
	sse := NewSSE(w)
	chunk := func(choices []map[string]any, extra map[string]any) {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1767225600, "model": req.Model, "choices": choices}
		for k, v := range extra {
			c[k] = v
		}
		sse.Event("", c)
	}
	chunk([]map[string]any{{"index": 0, "delta": map[string]any{"role": "assistant", "content": ""}, "finish_reason": nil}}, nil)
	for _, d := range chunks {
		chunk([]map[string]any{{"index": 0, "delta": d, "finish_reason": nil}}, nil)
	}
	chunk([]map[string]any{{"index": 0, "delta": map[string]any{}, "finish_reason": finish}}, nil)
	chunk([]map[string]any{}, map[string]any{"usage": usage})
	sse.Event("", "[DONE]")
}

// chatDelta is one streamed piece of an assistant message.
type chatDelta struct {
	Content          string          `json:"content,omitempty"`
	ReasoningContent string          `json:"reasoning_content,omitempty"`
	ToolCalls        []chatCallDelta `json:"tool_calls,omitempty"`
}

type chatCallDelta struct {
	Index    int          `json:"index"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function *chatFnDelta `json:"function,omitempty"`
}

type chatFnDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// writeChatJSON answers a request that did not ask for a stream with the
// whole message at once.
func writeChatJSON(w http.ResponseWriter, id, model string, chunks []chatDelta, finish string, usage map[string]int) {
	msg := map[string]any{"role": "assistant"}
	var content, reasoning strings.Builder
	var calls []map[string]any
	for _, d := range chunks {
		content.WriteString(d.Content)
		reasoning.WriteString(d.ReasoningContent)
		for _, c := range d.ToolCalls {
			if c.ID != "" {
				calls = append(calls, map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Function.Name, "arguments": c.Function.Arguments}})
			} else if len(calls) > 0 && c.Function != nil {
				fn := calls[len(calls)-1]["function"].(map[string]any)
				fn["arguments"] = fn["arguments"].(string) + c.Function.Arguments
			}
		}
	}
	msg["content"] = content.String()
	if reasoning.Len() > 0 {
		msg["reasoning_content"] = reasoning.String()
	}
	if calls != nil {
		msg["tool_calls"] = calls
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": id, "object": "chat.completion", "created": 1767225600, "model": model,
		"choices": []map[string]any{{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   usage,
	})
}
