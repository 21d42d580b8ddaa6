package oracle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/convo"
	"github.com/sesstool/sesstool/internal/testkit/mockmodel"
	"github.com/sesstool/sesstool/session"
)

const geminiPrompt = "Print a greeting with a shell command."

// geminiLive runs the script once: one prompt, which the mock answers
// with a thought, a text and a shell call, then a final text after the
// call's output. It returns the environment and the session file.
func geminiLive(t *testing.T) (*geminiEnv, string) {
	t.Helper()
	env := newGeminiEnv(t)
	env.run(t, "-p", geminiPrompt, "--yolo")
	fs := env.sessionFiles(t)
	if len(fs) != 1 {
		t.Fatalf("Gemini CLI wrote %q, want one session file", fs)
	}
	return env, fs[0]
}

// Gemini CLI 0.61.0's own session of the scripted run is detected as
// Gemini CLI's JSON Lines generation, validates with no finding, and info
// counts what the script did: the session context and the prompt, two
// replies with the mock's usage each, one tool call and its result; the
// records the loader applied are named.
//
// Then, the control of the resume tests: Gemini CLI resumes that session,
// and its first request carries the session's whole conversation and
// passes the linter; what it appends validates. (One run of the agent
// serves both.)
func TestGeminiLiveSession(t *testing.T) {
	env, file := geminiLive(t)
	if out := sesstool(t, "detect", file); !strings.HasSuffix(out, ": gemini v2\n") {
		t.Errorf("detect: %q, want gemini v2", out)
	}
	if dir := os.Getenv("SESSTOOL_AGENT_OUT"); dir != "" {
		// scripts/agents-latest compares this session with the pinned one.
		b, _ := os.ReadFile(file)
		if err := os.WriteFile(filepath.Join(dir, "gemini-live.jsonl"), b, 0o644); err != nil {
			t.Error(err)
		}
	}
	out, _, code := run(t, "validate", "--output", "json", file)
	var v struct {
		Summary struct{ Errors, Warnings int }
	}
	if err := json.Unmarshal([]byte(lastLine(out)), &v); code != 0 || err != nil || v.Summary.Errors != 0 || v.Summary.Warnings != 0 {
		t.Errorf("validate exited %d: %v\n%s", code, err, out)
	}
	var info struct {
		Format, Version string
		Roles           map[string]int
		Applied         map[string]int
		Tokens          struct{ Input, Output, CacheRead int }
	}
	if err := json.Unmarshal([]byte(sesstool(t, "info", "--output", "json", file)), &info); err != nil {
		t.Fatal(err)
	}
	s := mockmodel.Default
	replies := len(env.turns())
	if replies != 2 {
		t.Fatalf("Gemini CLI sent %d conversation turns, want 2 (the call, then the final text)", replies)
	}
	if info.Format != "gemini" || info.Version != "2" {
		t.Errorf("info: %s v%s, want gemini v2", info.Format, info.Version)
	}
	want := map[string]int{"user": 2, "assistant": 2, "tool": 1}
	for role, n := range want {
		if info.Roles[role] != n {
			t.Errorf("info: %d %s messages, want %d (roles %v)", info.Roles[role], role, n, info.Roles)
		}
	}
	if info.Tokens.Input != replies*s.InputTokens || info.Tokens.Output != replies*s.OutputTokens {
		t.Errorf("info: tokens %d in / %d out, want %d / %d (the mock's usage of %d replies)",
			info.Tokens.Input, info.Tokens.Output, replies*s.InputTokens, replies*s.OutputTokens, replies)
	}
	// The reply is written again once its tool call is added: one message
	// replaced, and a $set of lastUpdated after each message.
	if info.Applied["message replaced"] != 1 || info.Applied["$set"] == 0 {
		t.Errorf("info: applied %v, want one message replaced and $set records", info.Applied)
	}
	calls := toolCalls(t, file)
	if len(calls) != 1 || !strings.Contains(calls[0], "run_shell_command") || !strings.Contains(calls[0], s.Command) {
		t.Errorf("tool calls %q, want the one shell call of the script", calls)
	}
	// Written back as Gemini CLI, the file is the same bytes.
	back := filepath.Join(t.TempDir(), "back.jsonl")
	sesstool(t, "convert", "--to", "gemini", "-o", back, file)
	if a, b := readFile(t, file), readFile(t, back); a != b {
		t.Errorf("gemini -> gemini changed the file")
	}

	own := mainSession(t, "gemini", file)
	before := len(env.turns())
	env.run(t, "--resume", own.Meta.ID, "-p", "continue", "--yolo")
	checkGeminiResumed(t, env, before, own, file, true)
	if dir := os.Getenv("SESSTOOL_AGENT_OUT"); dir != "" {
		b, _ := os.ReadFile(file)
		if err := os.WriteFile(filepath.Join(dir, "gemini-resumed.jsonl"), b, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// checkGeminiResumed checks the first conversation turn Gemini CLI sent
// after a resume (the from-th) against the session s it resumed, and the
// session file after it.
//
// own is set for the control, a session Gemini CLI wrote itself: it
// records a call's response twice (in the reply's toolCalls and as a user
// record), and 0.61.0 sends both back on resume, so the second answers a
// call already answered. That is the agent's own doing, which sesstool's
// sessions from other layouts do not provoke (they record it once).
func checkGeminiResumed(t *testing.T, env *geminiEnv, from int, s *session.Session, file string, own bool) {
	t.Helper()
	turns := env.turns()
	if len(turns) <= from {
		t.Fatal("Gemini CLI sent the model no conversation turn after the resume")
	}
	body := turns[from].Body
	got := geminiItems(t, body)
	want := geminiExpected(s)
	if miss := convo.Missing(want, got); len(miss) != 0 {
		t.Errorf("the first request lacks %d of the %d items of the session's active path, first %v\nsent: %v", len(miss), len(want), miss[0], got)
	}
	if p := geminiLint(body, own); len(p) != 0 {
		t.Errorf("the first request fails the Gemini linter:\n%s", strings.Join(p, "\n"))
	}
	out, _, code := run(t, "validate", file)
	if code != 0 {
		t.Errorf("after the resume the session does not validate (exit %d):\n%s", code, out)
	}
}

// geminiExpected is what Gemini CLI sends for a session it resumes: the
// active path's items (convo.Expected), but for a user message whose text
// the agent leaves out of a resumed history (empty, a slash command, "?",
// its own <session_context> or <hook_context>: isIgnoredUserContent).
//
// The results of a reply's calls come in the order of the calls: the
// agent sends them so, from the reply's toolCalls, however the source
// ordered them (Claude Code records parallel calls' results as they end).
func geminiExpected(s *session.Session) []convo.Item {
	var out []convo.Item
	path := mainPath(s)
	order := map[string]int{}
	for _, e := range path {
		if e.Message != nil {
			for _, b := range e.Message.Content {
				if b.Type == session.BlockToolCall {
					order[b.ToolCallID] = len(order)
				}
			}
		}
	}
	isResult := func(e *session.Entry) bool { return e.Message != nil && e.Message.Role == session.RoleTool }
	isReply := func(e *session.Entry) bool { return e.Message != nil && e.Message.Role == session.RoleAssistant }
	// A reply whose calls wait for results takes in the replies that come
	// before the results (Claude Code writes one line per block), as
	// sesstool writes it: one gemini record, every call, then every result.
	path = append([]*session.Entry(nil), path...)
	for i := 0; i < len(path); i++ {
		if !isReply(path[i]) {
			continue
		}
		pending := map[string]bool{}
		add := func(e *session.Entry) {
			for _, b := range e.Message.Content {
				if b.Type == session.BlockToolCall {
					pending[b.ToolCallID] = true
				}
			}
		}
		add(path[i])
		answered, j := 0, i+1
		for ; j < len(path) && answered < len(pending); j++ {
			switch e := path[j]; {
			case isResult(e) && pending[e.Message.ToolCallID]:
				answered++
			case isReply(e):
				add(e)
			case e.Message == nil || e.Kind != session.KindMessage:
				// not written (Adapt drops what the layout lacks)
			default:
				answered = len(pending) // anything else ends the reply
				j--
			}
		}
		run := path[i:j]
		sort.SliceStable(run, func(a, b int) bool {
			ra, rb := isResult(run[a]), isResult(run[b])
			if ra != rb {
				return !ra
			}
			return ra && order[run[a].Message.ToolCallID] < order[run[b].Message.ToolCallID]
		})
		i = j - 1
	}
	for _, e := range path {
		if e.Message != nil && e.Message.Role == session.RoleUser && geminiIgnores(e.Message) {
			continue
		}
		// A tool result of several texts (Claude's Task result and its
		// agentId trailer) is one function response.
		for i, it := range convo.Expected(&session.Session{Meta: s.Meta, Entries: []*session.Entry{e}}) {
			if n := len(out); i > 0 && n > 0 && it.Kind == convo.Result && out[n-1].Kind == convo.Result {
				out[n-1].Text += "\n" + it.Text
				continue
			}
			out = append(out, it)
		}
	}
	return out
}

func geminiIgnores(m *session.Message) bool {
	var text strings.Builder
	for _, b := range m.Content {
		if b.Type == session.BlockText {
			text.WriteString(b.Text)
		} else {
			return false // an image or a file is content the agent keeps
		}
	}
	t := strings.TrimSpace(text.String())
	for _, p := range []string{"/", "?", "<session_context>", "<hook_context>"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return t == ""
}

// geminiItems is the conversation of a generateContent request, in the
// kinds convo compares: user and model texts (thoughts left out), calls
// by name, responses by their output.
func geminiItems(t *testing.T, body []byte) []convo.Item {
	t.Helper()
	req, err := mockmodel.ParseGemini(body)
	if err != nil {
		t.Fatal(err)
	}
	var out []convo.Item
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			switch {
			case p.FunctionCall != nil:
				out = append(out, convo.Item{Kind: convo.Call, Text: p.FunctionCall.Name})
			case p.FunctionResponse != nil:
				out = append(out, convo.Item{Kind: convo.Result, Text: unmasked(responseText(p.FunctionResponse.Response))})
			case p.Thought || p.Text == "":
			case c.Role == "model":
				out = append(out, convo.Item{Kind: convo.Assistant, Text: p.Text})
			default:
				out = append(out, convo.Item{Kind: convo.User, Text: p.Text})
			}
		}
	}
	return out
}

// responseText is a function response as the text it carries: its
// output or error, else the whole response.
func responseText(r map[string]any) string {
	for _, k := range []string{"output", "error"} {
		if s, ok := r[k].(string); ok {
			return s
		}
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// geminiLint is mockmodel.LintGemini's problems but for
// "skip_thought_signature_validator", the synthetic signature Gemini CLI's
// history hardening (utils/historyHardening) puts on a function call it
// resumes without one, relying on the service accepting it in place of a
// signature it issued; and, for the
// agent's own session (own), a function response repeated in the same
// turn as the one before it (see checkGeminiResumed).
func geminiLint(body []byte, own bool) []string {
	var out []string
	for _, p := range mockmodel.LintGemini(body) {
		if strings.Contains(p, `thoughtSignature "skip_thought_signatu`) {
			continue
		}
		if own && strings.Contains(p, "answers no functionCall of the turn before") && repeatedResponse(body, p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// repeatedResponse reports whether the functionResponse problem p names a
// response whose id another response of the same turn already carries.
func repeatedResponse(body []byte, p string) bool {
	req, err := mockmodel.ParseGemini(body)
	if err != nil {
		return false
	}
	for _, c := range req.Contents {
		seen := map[string]int{}
		for _, part := range c.Parts {
			if fr := part.FunctionResponse; fr != nil {
				seen[fr.ID]++
				if seen[fr.ID] > 1 && strings.Contains(p, "(id "+fr.ID+")") {
					return true
				}
			}
		}
	}
	return false
}

// maskedRE finds where Gemini CLI saved a tool output it masked in the
// history it sends (to keep the context window): the file holds the
// output in full.
var maskedRE = regexp.MustCompile(`(?s)^<tool_output_masked>.*(?:Full output available at: |Full string saved to: )([^\n\]]+)`)

// unmasked is a response's text, or, for one Gemini CLI masked, the
// output it saved (its output member when it is a response object).
func unmasked(text string) string {
	m := maskedRE.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return text
	}
	b, err := os.ReadFile(m[1])
	if err != nil {
		return text
	}
	var r map[string]any
	if json.Unmarshal(b, &r) == nil {
		return responseText(r)
	}
	return string(b)
}
