package mockmodel

import "fmt"

// LintChat checks a Chat Completions request against the rule the real
// services enforce and the mock does not: every assistant tool call is
// answered by a tool message with its id, after it and before the next
// assistant message, and every tool message answers a call made before
// it. OpenAI refuses either with a 400 ("tool_call_ids did not have
// response messages", "messages with role 'tool' must be a response to a
// preceding message with 'tool_calls'").
func LintChat(req ChatRequest) []string {
	var probs []string
	open := map[string]int{} // call id -> message index, awaiting its result
	var order []string
	flush := func(at int) {
		for _, id := range order {
			if i, ok := open[id]; ok {
				probs = append(probs, fmt.Sprintf("messages[%d]: tool call %q has no tool message before messages[%d]", i, id, at))
				delete(open, id)
			}
		}
		order = order[:0]
	}
	seen := map[string]bool{}
	for i, m := range req.Messages {
		switch m.Role {
		case "assistant":
			flush(i)
			for _, c := range m.ToolCalls {
				switch {
				case c.ID == "":
					probs = append(probs, fmt.Sprintf("messages[%d]: tool call %s has no id", i, c.Function.Name))
				case seen[c.ID]:
					probs = append(probs, fmt.Sprintf("messages[%d]: tool call id %q used twice", i, c.ID))
				default:
					seen[c.ID] = true
					open[c.ID] = i
					order = append(order, c.ID)
				}
			}
		case "tool":
			if _, ok := open[m.ToolCallID]; !ok {
				probs = append(probs, fmt.Sprintf("messages[%d]: tool message for %q answers no open tool call", i, m.ToolCallID))
				continue
			}
			delete(open, m.ToolCallID)
		case "user", "system", "developer":
			if len(open) > 0 {
				flush(i)
			}
		}
	}
	flush(len(req.Messages))
	return probs
}
