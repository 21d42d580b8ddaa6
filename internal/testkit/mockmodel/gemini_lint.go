package mockmodel

import (
	"fmt"
)

// LintGemini checks a generateContent request for what the Gemini API
// refuses and the mock accepts: every model turn's function calls are
// answered, one response each, by the very next turn, a user turn; every
// function response answers a call of the turn just before it; and every
// thoughtSignature sent back is one the mock issued (the service rejects
// a signature it did not give). It returns one line per problem.
func LintGemini(body []byte) []string {
	req, err := ParseGemini(body)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for i, c := range req.Contents {
		for j, p := range c.Parts {
			if p.ThoughtSignature != "" && !GeminiSignedByMock(p.ThoughtSignature) {
				out = append(out, fmt.Sprintf("contents[%d].parts[%d]: thoughtSignature %.20q was not issued by the service", i, j, p.ThoughtSignature))
			}
		}
		calls := geminiCalls(c)
		var next []string
		var nextRole string
		if i+1 < len(req.Contents) {
			next, nextRole = geminiResponses(req.Contents[i+1]), req.Contents[i+1].Role
		}
		if len(calls) > 0 && nextRole != "user" {
			next = nil
		}
		for _, call := range calls {
			if k := indexOf(next, call); k >= 0 {
				next = append(next[:k], next[k+1:]...)
				continue
			}
			out = append(out, fmt.Sprintf("contents[%d]: functionCall %s has no functionResponse in the next user turn", i, call))
		}
		var prev []string
		if i > 0 && req.Contents[i-1].Role == "model" {
			prev = geminiCalls(req.Contents[i-1])
		}
		for _, resp := range geminiResponses(c) {
			if k := indexOf(prev, resp); k >= 0 {
				prev = append(prev[:k], prev[k+1:]...)
				continue
			}
			out = append(out, fmt.Sprintf("contents[%d]: functionResponse %s answers no functionCall of the turn before", i, resp))
		}
	}
	return out
}

// geminiCalls names a turn's function calls, by id where they have one.
func geminiCalls(c GeminiContent) []string {
	var out []string
	for _, p := range c.Parts {
		if p.FunctionCall != nil {
			out = append(out, callKey(p.FunctionCall.Name, p.FunctionCall.ID))
		}
	}
	return out
}

func geminiResponses(c GeminiContent) []string {
	var out []string
	for _, p := range c.Parts {
		if p.FunctionResponse != nil {
			out = append(out, callKey(p.FunctionResponse.Name, p.FunctionResponse.ID))
		}
	}
	return out
}

func callKey(name, id string) string {
	if id == "" {
		return fmt.Sprintf("%q", name)
	}
	return fmt.Sprintf("%q (id %s)", name, id)
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}
