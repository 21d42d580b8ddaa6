package spell

import "github.com/sesstool/sesstool/session"

// Neutral stop reasons. Layouts spell them their own way: pi "toolUse",
// flat "tool_use", OpenCode "tool-calls", Anthropic "end_turn", ...
const (
	StopEnd     = "stop"
	StopLength  = "length"
	StopToolUse = "tool_use"
	StopError   = "error"
	StopAborted = "aborted"
)

// Stop maps an assistant message's stop reason onto the neutral five. An
// empty reason is inferred (a tool call means tool_use, an error message
// error, else stop). ok is false for a spelling no layout documents; the
// caller writes StopEnd and counts the loss.
func Stop(m *session.Message) (reason string, ok bool) {
	switch m.StopReason {
	case StopEnd, StopLength, StopError, StopAborted, StopToolUse:
		return m.StopReason, true
	case "toolUse", "tool_calls", "tool-calls":
		return StopToolUse, true
	case "end_turn", "stop_sequence", "endTurn":
		return StopEnd, true
	case "max_tokens", "maxTokens":
		return StopLength, true
	case "":
		for _, b := range m.Content {
			if b.Type == session.BlockToolCall {
				return StopToolUse, true
			}
		}
		if m.Error != "" {
			return StopError, true
		}
		return StopEnd, true
	}
	return StopEnd, false
}
