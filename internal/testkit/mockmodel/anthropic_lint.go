package mockmodel

import (
	"fmt"
	"strings"
)

// LintAnthropic checks a Messages request body against rules the real
// service enforces and the mock does not, and returns one line per
// breach (none: the service would take the request):
//
//   - every thinking block carries a signature the service issued: the
//     mock's own (Sign), or one trusted says the service issued (the
//     signatures of a real Claude Code session, which the real service
//     would take back); a missing or foreign one is refused, and so is a
//     redacted_thinking block whose data is not trusted;
//   - every tool_use of an assistant message has its tool_result in the
//     next user message, and every tool_result names a tool_use of the
//     assistant message just before it; a tool_use id is used once.
//
// Messages of role "system", which Claude Code places between turns, are
// not turns: a tool_use's results are looked for past them.
func LintAnthropic(body []byte, trusted func(sig string) bool) []string {
	req, err := ParseAnthropic(body)
	if err != nil {
		return []string{err.Error()}
	}
	if trusted == nil {
		trusted = func(string) bool { return false }
	}
	var out []string
	bad := func(i int, format string, a ...any) {
		out = append(out, fmt.Sprintf("messages[%d]: ", i)+fmt.Sprintf(format, a...))
	}
	seen := map[string]bool{}
	var open []string // the previous assistant turn's tool_use ids
	openAt := -1
	for i, m := range req.Messages {
		if m.Role == "system" {
			continue
		}
		bs, err := m.Blocks()
		if err != nil {
			bad(i, "content: %v", err)
			continue
		}
		switch m.Role {
		case "assistant":
			if len(open) > 0 {
				bad(openAt, "tool_use %s has no tool_result in the next user message", strings.Join(open, ", "))
			}
			open, openAt = nil, i
			for j, b := range bs {
				switch b.Type {
				case "thinking":
					text, sig := "", ""
					if b.Thinking != nil {
						text = *b.Thinking
					}
					if b.Signature != nil {
						sig = *b.Signature
					}
					switch {
					case sig == "":
						bad(i, "content[%d]: a thinking block without a signature", j)
					case !SignedByMock(text, sig) && !trusted(sig):
						bad(i, "content[%d]: a thinking block whose signature the service did not issue", j)
					}
				case "redacted_thinking":
					if !trusted(b.Data) {
						bad(i, "content[%d]: a redacted_thinking block whose data the service did not issue", j)
					}
				case "tool_use":
					if b.ID == "" {
						bad(i, "content[%d]: a tool_use without an id", j)
						continue
					}
					if seen[b.ID] {
						bad(i, "content[%d]: tool_use id %s is used twice", j, b.ID)
					}
					seen[b.ID] = true
					open = append(open, b.ID)
				}
			}
		case "user":
			answered := map[string]bool{}
			for j, b := range bs {
				if b.Type != "tool_result" {
					continue
				}
				if !contains(open, b.ToolUseID) {
					bad(i, "content[%d]: tool_result for %q, which is no tool_use of the assistant message before", j, b.ToolUseID)
				}
				answered[b.ToolUseID] = true
			}
			var left []string
			for _, id := range open {
				if !answered[id] {
					left = append(left, id)
				}
			}
			if len(left) > 0 {
				bad(openAt, "tool_use %s has no tool_result in the next user message", strings.Join(left, ", "))
			}
			open = nil
		default:
			bad(i, "role %q is no role of the Messages API", m.Role)
		}
	}
	if len(open) > 0 {
		bad(openAt, "tool_use %s has no tool_result in the next user message", strings.Join(open, ", "))
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
