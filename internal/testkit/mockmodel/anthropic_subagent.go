package mockmodel

import (
	"net/http"
	"strings"
)

// AnthropicSubagentTools are the names Claude Code has given its tool
// that starts a sub-agent, newest first.
var AnthropicSubagentTools = []string{"Agent", "Task"}

// AnthropicSubagent returns the Messages routes of a mock that plays a
// sub-agent run: the main conversation's first reply calls the sub-agent
// tool with prompt, the sub-agent's own conversation (the requests whose
// first user message carries prompt) plays the script, and the main
// conversation's reply to the sub-agent's result is the script's Final.
// prompt must be a text the main conversation's prompt does not hold.
func AnthropicSubagent(prompt string) []Route {
	return []Route{
		{Suffix: "/v1/messages/count_tokens", Handler: anthropicCountTokens},
		{Suffix: "/v1/messages", Handler: func(s *Server, w http.ResponseWriter, r *http.Request, body []byte) {
			anthropicMessagesWith(s, w, body, func(req AnthropicRequest) anthropicReply {
				return s.anthropicSubagentReply(req, prompt)
			})
		}},
	}
}

// anthropicSubagentReply is the reply of the sub-agent script: the
// default script's for a side request or the sub-agent's conversation,
// and for the main conversation a call of the sub-agent tool, then Final.
func (s *Server) anthropicSubagentReply(req AnthropicRequest, prompt string) anthropicReply {
	tool := req.subagentTool()
	if tool == "" || !req.offers(AnthropicMainTool) {
		return s.anthropicReply(req)
	}
	if req.firstUserHolds(prompt) {
		// The sub-agent: one shell call, then Final, whatever Claude Code
		// appends after the call's result.
		if req.called(AnthropicMainTool) {
			return anthropicReply{blocks: []map[string]any{{"type": "text", "text": s.Script.Final}}, stopReason: "end_turn"}
		}
		return s.anthropicReply(req)
	}
	// Final once the tool was called: its result, or (when Claude Code
	// runs the sub-agent in the background) the later notification that
	// the sub-agent finished, gets the closing text, so the run ends.
	if anthropicStep(req) == StepFinal || req.called(tool) {
		return anthropicReply{blocks: []map[string]any{{"type": "text", "text": s.Script.Final}}, stopReason: "end_turn"}
	}
	return anthropicReply{blocks: []map[string]any{{
		"type": "tool_use", "id": nextAnthropicID("toolu"), "name": tool,
		"input": map[string]any{
			"description":   "Run the scripted command",
			"prompt":        prompt,
			"subagent_type": "general-purpose",
			// In the foreground, so the call's result is the sub-agent's
			// answer and the run ends with it.
			"run_in_background": false,
		},
	}}, stopReason: "tool_use"}
}

// subagentTool is the name of the sub-agent tool the request offers, or
// "" when it offers none (a sub-agent is not offered one).
func (r AnthropicRequest) subagentTool() string {
	for _, name := range AnthropicSubagentTools {
		if r.offers(name) {
			return name
		}
	}
	return ""
}

// firstUserHolds says whether the first user message has a text holding
// s: a sub-agent's conversation starts with the prompt it was given.
func (r AnthropicRequest) firstUserHolds(s string) bool {
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		bs, _ := m.Blocks()
		for _, b := range bs {
			if b.Type == "text" && strings.Contains(b.Text, s) {
				return true
			}
		}
		return false
	}
	return false
}

// called says whether an assistant message of the request calls tool.
func (r AnthropicRequest) called(tool string) bool {
	for _, m := range r.Messages {
		if m.Role != "assistant" {
			continue
		}
		bs, _ := m.Blocks()
		for _, b := range bs {
			if b.Type == "tool_use" && b.Name == tool {
				return true
			}
		}
	}
	return false
}
