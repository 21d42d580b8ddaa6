package oracle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/convo"
	"github.com/sesstool/sesstool/internal/testkit/mockmodel"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// codexSources: one session of every layout sesstool reads, and the real
// sessions the issue names (Claude Code with sub-agents, Codex with
// reasoning and with web searches, pi with branches, OpenCode).
var codexSources = []source{
	{name: "tree", layout: "tree", path: "testdata/samples/tree/pi-v3-branches.jsonl"},
	{name: "flat", layout: "flat", path: "testdata/samples/flat/20261121-042424-f487536d.jsonl"},
	{name: "ash", layout: "ash", path: "testdata/samples/ash/generated-v2"},
	{name: "goat", layout: "goat", path: "testdata/samples/goat/generated"},
	{name: "opencode-export", layout: "opencode-export", path: "testdata/samples/opencode/export/v1.1.34__ses_e03a7a64affe0wHc2prdw2R2s7.json"},
	{name: "opencode", layout: "opencode", path: "testdata/samples/opencode/xdg/opencode"},
	{name: "claude", layout: "claude", path: "testdata/samples/claude/store"},
	{name: "codex", layout: "codex", path: "testdata/samples/codex/home"},
	{name: "model", layout: "model", path: "testdata/samples/model/chat.model.jsonl"},
	{name: "real-claude-subagents", layout: "claude", path: "real-world/claude/marot+spotter__258c7280", shared: true},
	{name: "real-codex-reasoning", layout: "codex", path: "real-world/codex/codemie-ai+codemie-code__rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl", shared: true},
	{name: "real-codex-web-search", layout: "codex", path: "real-world/codex/madshn+localpush__rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl", shared: true},
	{name: "real-pi-branches", layout: "tree", path: "real-world/tree/JohnnyLai92+pi-mono__2026-04-21T09-04-26-172Z_9bbf4a26-7ae2-4d77-86fe-4e87ed7cc08c.jsonl", shared: true},
	{name: "real-opencode", layout: "opencode", path: "real-world/opencode/Burdis28+burdis28.github.io__opencode", shared: true},
}

// A session of every layout, converted into a Codex home, is resumed by
// Codex 0.171.0 with no workaround: the first request Codex sends the
// model carries every user and assistant text, tool call and tool result
// of the source's active path, in order, and passes the Responses linter;
// the rollout, with Codex's new turn, still validates and converts back.
func TestCodexResume(t *testing.T) {
	// under -short, the first source only: pi's tree with branches, the
	// layout furthest from the agent's own
	eachSource(t, short.Cases(t, codexSources, nil), func(t *testing.T, src source, path string, s *session.Session) {
		provider := "mock"
		if s.Meta.Provider == "openai" {
			provider = "openai"
		}
		env := newCodexEnvFor(t, provider)
		sesstool(t, "convert", "--from", src.layout, "--to", "codex", "--session", s.Meta.ID, "-o", env.codexHome, path)
		rollout, id := mainRollout(t, env)
		env.run(t, "exec", "--skip-git-repo-check", "resume", id, "continue")
		checkResumed(t, env, 0, s, rollout, trustedIn(t, path))
		if rs := env.rollouts(t); len(rs) != len(env.rolloutsBefore) {
			t.Errorf("resume wrote a new rollout (%d, had %d): Codex did not find the session", len(rs), len(env.rolloutsBefore))
		}
		back := filepath.Join(t.TempDir(), "back")
		sesstool(t, "convert", "--from", "codex", "--to", src.layout, "-o", back, rollout)
	})
}

// checkResumed checks Codex's first request after a resume (the from-th
// Responses request) against the session s it resumed, and the rollout
// after it.
func checkResumed(t *testing.T, env *codexEnv, from int, s *session.Session, rollout string, trusted func(string) bool) {
	t.Helper()
	reqs := env.posts()
	if len(reqs) <= from {
		t.Fatal("Codex sent the model no request")
	}
	body := reqs[from].Body
	got := codexItems(t, body)
	want := codexExpected(t, s)
	if miss := convo.Missing(want, got); len(miss) != 0 {
		t.Errorf("the first request lacks %d of the %d items of the session's active path, first %v\nsent: %v", len(miss), len(want), miss[0], got)
	}
	if p := mockmodel.LintResponses(body, trusted); len(p) != 0 {
		t.Errorf("the first request fails the Responses linter:\n%s", strings.Join(p, "\n"))
	}
	out, _, code := run(t, "validate", rollout)
	if code != 0 {
		t.Errorf("after the resume the rollout does not validate (exit %d):\n%s", code, out)
	}
}

// codexExpected is what Codex sends for a session it resumes: the active
// path's items (convo.Expected), except that a compaction replaces what
// came before it with the user's texts and the summary, as Codex's own
// compacted history does, or, for a Codex compaction, with the history it
// recorded (replacement_history).
func codexExpected(t *testing.T, s *session.Session) []convo.Item {
	var out []convo.Item
	for _, e := range mainPath(s) {
		if e.Kind == session.KindCompaction && e.Compaction != nil {
			if h := e.Compaction.Details; e.Origin == "codex" && len(h) > 0 && h[0] == '[' {
				// A Codex compaction's replacement_history is the history
				// Codex goes on from.
				out = codexItems(t, []byte(`{"input":`+string(h)+`}`))
				continue
			}
			var kept []convo.Item
			for _, it := range out {
				if it.Kind == convo.User {
					kept = append(kept, it)
				}
			}
			out = append(kept, convo.Item{Kind: convo.User, Text: e.Compaction.Summary})
			continue
		}
		if e.Origin == "codex" && e.Type == "user_message" {
			// A prompt a rollout kept only as its user_message event:
			// Codex shows it, and never sends an event to the model.
			continue
		}
		one := &session.Session{Meta: s.Meta, Entries: []*session.Entry{e}}
		// A tool result of several texts (Claude's Task result and its
		// agentId trailer) is one function_call_output in Codex.
		for i, it := range convo.Expected(one) {
			if n := len(out); i > 0 && n > 0 && it.Kind == convo.Result && out[n-1].Kind == convo.Result {
				out[n-1].Text += "\n" + it.Text
				continue
			}
			out = append(out, it)
		}
	}
	return out
}

// codexItems is the conversation of a Responses request's input, in the
// kinds convo compares: user and assistant texts (developer messages are
// the agent's), calls by name, outputs by text.
func codexItems(t *testing.T, body []byte) []convo.Item {
	t.Helper()
	_, items, err := mockmodel.ParseResponses(body)
	if err != nil {
		t.Fatal(err)
	}
	var out []convo.Item
	for _, it := range items {
		switch it.Type {
		case "message":
			// One item per text part, as convo has one per text block.
			kind := map[string]convo.Kind{"user": convo.User, "assistant": convo.Assistant}[it.Role]
			if kind == "" {
				break
			}
			var parts []struct{ Text *string }
			if json.Unmarshal(it.Content, &parts) != nil {
				out = append(out, convo.Item{Kind: kind, Text: mockmodel.ResponsesText(it.Content)})
				break
			}
			for _, p := range parts {
				if p.Text != nil {
					out = append(out, convo.Item{Kind: kind, Text: *p.Text})
				}
			}
		case "function_call", "custom_tool_call":
			out = append(out, convo.Item{Kind: convo.Call, Text: it.Name})
		case "local_shell_call", "web_search_call", "tool_search_call", "image_generation_call":
			out = append(out, convo.Item{Kind: convo.Call, Text: strings.TrimSuffix(it.Type, "_call")})
		case "function_call_output", "custom_tool_call_output", "tool_search_output":
			out = append(out, convo.Item{Kind: convo.Result, Text: mockmodel.ResponsesOutputText(it.Output)})
		}
	}
	return out
}

// mainSession is the session of path to resume: the main session (no
// parent) with the most entries.
func mainSession(t *testing.T, layout, path string) *session.Session {
	t.Helper()
	var best *session.Session
	for _, s := range convo.Sessions(t, layout, path) {
		if s.Meta.Parent != nil {
			continue
		}
		if best == nil || len(s.Entries) > len(best.Entries) {
			best = s
		}
	}
	if best == nil {
		t.Fatalf("no main session in %s", path)
	}
	return best
}

// mainPath is a session's active path, as convo.Expected walks it.
func mainPath(s *session.Session) []*session.Entry {
	return convtree.NewConversation(convtree.Main(s.Entries), s.Meta.MessageLinks).Path()
}

// mainRollout is the one rollout convert wrote into the Codex home, and
// its thread id.
func mainRollout(t *testing.T, env *codexEnv) (path, id string) {
	t.Helper()
	rs := env.rollouts(t)
	env.rolloutsBefore = rs
	if len(rs) != 1 {
		t.Fatalf("convert wrote %q into the Codex home, want one rollout", rs)
	}
	m := regexp.MustCompile(`([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$`).FindStringSubmatch(rs[0])
	if m == nil {
		t.Fatalf("rollout %s: no thread id in its name", rs[0])
	}
	return rs[0], m[1]
}

// trustedIn says which encrypted reasoning the service issued to the
// account that owns the source: the encrypted_content a real Codex
// rollout carries (its own account's), resent as it was written.
func trustedIn(t *testing.T, path string) func(string) bool {
	t.Helper()
	own := map[string]bool{}
	_ = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for _, m := range encRE.FindAllSubmatch(b, -1) {
			var s string
			if json.Unmarshal(m[1], &s) == nil {
				own[s] = true
			}
		}
		return nil
	})
	return func(enc string) bool { return own[enc] }
}

var encRE = regexp.MustCompile(`"encrypted_content":("(?:[^"\\]|\\.)*")`)
