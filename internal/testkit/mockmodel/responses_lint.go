package mockmodel

import (
	"fmt"
	"strings"
)

// LintResponses checks a Responses request body against the rules the
// real service enforces on a request's input and the mock does not:
//
//   - every call (function_call, custom_tool_call, local_shell_call) has a
//     call_id, no two calls share one, and each has its output later in
//     the input; every output names an earlier call;
//   - a reasoning item is followed by the item it reasoned towards (an
//     assistant message or a call), never ends the input nor precedes a
//     user turn;
//   - when the request asks for reasoning.encrypted_content (a stateless
//     request, store=false), every reasoning item carries encrypted
//     content the service issued: the mock's own (EncryptedReasoning of
//     the item's id and summary) or one trusted says the same account was
//     issued (a real session's own, resent as it was written). A missing
//     or foreign one is refused, as the service cannot decrypt it.
//
// It returns one line per problem, naming the input item.
func LintResponses(body []byte, trusted func(enc string) bool) []string {
	req, items, err := ParseResponses(body)
	if err != nil {
		return []string{err.Error()}
	}
	stateless := false
	for _, inc := range req.Include {
		if inc == "reasoning.encrypted_content" {
			stateless = true
		}
	}
	var probs []string
	bad := func(i int, f string, a ...any) {
		probs = append(probs, fmt.Sprintf("input[%d] (%s): %s", i, items[i].Type, fmt.Sprintf(f, a...)))
	}
	calls := map[string]int{}     // call_id -> its call's index
	answered := map[string]bool{} // call_ids with an output
	for i, it := range items {
		switch it.Type {
		case "function_call", "custom_tool_call", "local_shell_call":
			if it.CallID == "" {
				bad(i, "a call without call_id")
				continue
			}
			if j, dup := calls[it.CallID]; dup {
				bad(i, "call_id %q is already the call of input[%d]", it.CallID, j)
				continue
			}
			calls[it.CallID] = i
		case "function_call_output", "custom_tool_call_output":
			j, ok := calls[it.CallID]
			switch {
			case it.CallID == "":
				bad(i, "an output without call_id")
			case !ok:
				bad(i, "no earlier call has call_id %q", it.CallID)
			case answered[it.CallID]:
				bad(i, "a second output for call_id %q (the call is input[%d])", it.CallID, j)
			}
			if ok {
				answered[it.CallID] = true
			}
		case "reasoning":
			if next := i + 1; next >= len(items) || !followsReasoning(items[next]) {
				bad(i, "reasoning without its following item (an assistant message or a call)")
			}
			if !stateless {
				continue
			}
			switch enc := it.EncryptedContent; {
			case enc == nil || *enc == "":
				bad(i, "reasoning without encrypted_content, which include reasoning.encrypted_content requires")
			case *enc == EncryptedReasoning(it.ID, ResponsesText(it.Summary)):
			case trusted != nil && trusted(*enc):
			default:
				bad(i, "encrypted_content %.24q… was not issued by this service", *enc)
			}
		}
	}
	for i, it := range items {
		if j, ok := calls[it.CallID]; ok && j == i && !answered[it.CallID] {
			bad(i, "call_id %q has no output", it.CallID)
		}
	}
	return probs
}

// followsReasoning says whether it may follow a reasoning item: the output
// the reasoning belongs to (a message of the assistant, a call, another
// reasoning item).
func followsReasoning(it ResponsesItem) bool {
	switch it.Type {
	case "message":
		return it.Role == "assistant"
	case "reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call",
		"tool_search_call", "image_generation_call":
		return true
	}
	return strings.HasSuffix(it.Type, "_call")
}
