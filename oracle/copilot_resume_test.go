package oracle

import (
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/convo"
	"github.com/sesstool/sesstool/internal/testkit/mockmodel"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/session"
)

// copilotSources: one session of every layout sesstool reads, and real
// sessions of other agents (Claude Code with sub-agents, pi with
// branches) and of Copilot CLI itself (an older version, with a sub-agent
// and opaque reasoning).
var copilotSources = []source{
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
	{name: "real-pi-branches", layout: "tree", path: "real-world/tree/JohnnyLai92+pi-mono__2026-04-21T09-04-26-172Z_9bbf4a26-7ae2-4d77-86fe-4e87ed7cc08c.jsonl", shared: true},
	{name: "real-copilot-1.0.55", layout: "copilot", path: "real-world/copilot/qiaolei81+copilot-session-viewer__session-demo", shared: true},
}

// A session of every layout, converted into a Copilot home, is resumed by
// Copilot CLI 1.0.102 with no workaround: the first request it sends the
// model carries every user and assistant text, tool call and tool result
// of the source's active path, and passes the Chat Completions linter; the
// log, with Copilot's new turn, still validates and converts back.
func TestCopilotResume(t *testing.T) {
	// under -short, the first source only: pi's tree with branches, the
	// layout furthest from the agent's own
	eachSource(t, short.Cases(t, copilotSources, nil), func(t *testing.T, src source, path string, s *session.Session) {
		e := newCopilotEnv(t)
		log := copilotResume(t, e, src, path, s)
		if after := e.sessions(t); len(after) != 1 {
			t.Errorf("the resume wrote a new session (%v): Copilot did not find the converted one", after)
		}
		copilotCheckResumed(t, e, 0, copilotExpected(s), log)
	})
}

// copilotResume converts session s of src (at path) into e's Copilot home
// and has Copilot CLI resume it there; it returns the one log convert
// wrote.
func copilotResume(t *testing.T, e *copilotEnv, src source, path string, s *session.Session) string {
	t.Helper()
	sesstool(t, "convert", "--from", src.layout, "--to", "copilot", "--session", s.Meta.ID, "-o", e.copilotHome()+"/", path)
	logs := e.sessions(t)
	if len(logs) != 1 {
		t.Fatalf("convert wrote %v into the Copilot home, want one log", logs)
	}
	e.run(t, "--resume="+filepath.Base(filepath.Dir(logs[0])), "-p", "continue")
	return logs[0]
}

// copilotExpected is what Copilot sends for a session it resumes: the
// active path's items (convo.Expected), a tool result of several texts
// (Claude's Task result and its agentId trailer) as the one result
// Copilot's tool.execution_complete holds.
func copilotExpected(s *session.Session) []convo.Item {
	var out []convo.Item
	for _, e := range mainPath(s) {
		one := &session.Session{Meta: s.Meta, Entries: []*session.Entry{e}}
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

// copilotCheckResumed checks a resume: the first conversation request
// after the first `before` requests carries every expected item, in order
// among its kind, and passes the linter; the log still validates and
// converts back.
func copilotCheckResumed(t *testing.T, e *copilotEnv, before int, expected []convo.Item, log string) {
	t.Helper()
	var first *mockmodel.ChatRequest
	for _, r := range e.mock.Requests()[before:] {
		req, err := mockmodel.ParseChat(r.Body)
		if err != nil {
			continue // not a chat request
		}
		if !mockmodel.ChatSide(req) {
			first = &req
			break
		}
	}
	if first == nil {
		t.Fatal("the resume sent the model no conversation")
	}
	if len(expected) == 0 {
		t.Fatal("the source has no conversation to look for")
	}
	if miss := missingByKind(expected, chatItems(*first)); len(miss) > 0 {
		t.Errorf("the resumed request lacks %d of %d items, first %v; it carries %v", len(miss), len(expected), miss[0], chatItems(*first))
	}
	lintRequests(t, []mockmodel.ChatRequest{*first})
	validateNoFindings(t, log)
	out := filepath.Join(t.TempDir(), "back.jsonl")
	sesstool(t, "convert", "--to", "tree", "-o", out, log)
	validateNoFindings(t, out)
}
