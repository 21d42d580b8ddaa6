package oracle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/convo"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// realWorld returns ../shared/real-world/rel, or skips t (fails it under
// SESSTOOL_REQUIRE_PEERS=1) when it is not there.
func realWorld(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(shared.Dir(), "real-world", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		peers.Need(t, "real-world session "+p+" not found (set SESSTOOL_SHARED to the shared folder)")
	}
	return p
}

// ocSource is a session OpenCode is to resume: one per layout sesstool
// reads, and the real ones of ../shared/real-world.
type ocSource struct {
	name, layout string
	path         func(t *testing.T) string
	id           string // the session, where the path holds several
}

func sample(rel string) func(t *testing.T) string {
	return func(t *testing.T) string { return filepath.Join("..", "testdata", "samples", filepath.FromSlash(rel)) }
}

// sharedSample is ../shared/samples/rel, skipped (failed under
// SESSTOOL_REQUIRE_PEERS=1) when it is not there.
func sharedSample(rel string) func(t *testing.T) string {
	return func(t *testing.T) string {
		p := filepath.Join(shared.Dir(), "samples", filepath.FromSlash(rel))
		if _, err := os.Stat(p); err != nil {
			peers.Need(t, "shared sample "+p+" not found (set SESSTOOL_SHARED to the shared folder)")
		}
		return p
	}
}

func real(rel string) func(t *testing.T) string {
	return func(t *testing.T) string { return realWorld(t, rel) }
}

var ocSources = []ocSource{
	{name: "pi tree with branches", layout: "tree", path: sample("tree/pi-v3-branches.jsonl")},
	{name: "flat", layout: "flat", path: sample("flat/20261121-042424-f487536d.jsonl")},
	{name: "goat", layout: "goat", path: sample("goat/generated"), id: "3e7dfd39-96f7-438f-86f9-7f773e6d5295"},
	{name: "model dump", layout: "model", path: sample("model/chat.model.jsonl")},
	{name: "opencode export", layout: "opencode-export", path: sample("opencode/export/v1.1.34__ses_e03a7a64affe0wHc2prdw2R2s7.json")},
	{name: "real Claude Code with sub-agents", layout: "claude", path: real("claude/marot+spotter__258c7280")},
	{name: "real Codex with reasoning and web searches", layout: "codex", path: real("codex/codemie-ai+codemie-code__rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl")},
	// ash names no model: the export carries OpenCode's configured default
	{name: "ash", layout: "ash", path: sample("ash/generated-v2/sessions/cli")},
	{name: "ash upstream fixture", layout: "ash", path: sharedSample("ash/upstream-test-fixtures/valid/plain-chat")},
	{name: "real OpenCode database", layout: "opencode", path: real("opencode/suhd550-dev+stunning-memory__opencode.db"), id: "ses_04ca851f7ffevKrKMHW3RsPK1U"},
}

// A session of every layout, converted to an OpenCode export and taken in
// with `opencode import`, is continued by OpenCode 1.18.33 with `opencode
// run --session ID continue` and no other flag: its first request to the
// model carries the source's whole active path in order, with the model
// the source named (where it names none, as ash does, the default of the
// user's OpenCode config), and passes the linter; the database then still
// validates and the session converts back.
func TestOpenCodeResume(t *testing.T) {
	// under -short, the first source only: pi's tree with branches, the
	// layout furthest from the agent's own
	for _, src := range short.Cases(t, ocSources, nil) {
		t.Run(src.name, func(t *testing.T) {
			t.Parallel()
			path := src.path(t)
			e := newOCEnv(t)
			s := pick(t, convo.Sessions(t, src.layout, path), src.id)

			export := filepath.Join(e.home, "session.json")
			args := []string{"convert", "--from", src.layout, "--to", "opencode-export", "-o", export}
			if src.id != "" {
				args = append(args, "--session", src.id)
			}
			// the user's OpenCode config is the one OpenCode runs with
			e.sesstool(t, append(args, path)...)
			id, model, compacted := exportModel(t, export)
			expected := ocExpected(s, compacted)
			if model.ModelID == "unknown" || model.ProviderID == "unknown" {
				t.Fatalf("the export names the model %s/%s; the source names %s/%s", model.ProviderID, model.ModelID, s.Meta.Provider, s.Meta.Model)
			}
			// The user has the model the session names: OpenCode offers it.
			e.offer(t, model.ProviderID, model.ModelID)

			e.run(t, "import", export)
			before := e.mock.Count()
			e.run(t, "run", "--session", id, "continue")
			ocCheckResumed(t, e, before, expected, id)
			if reqs := conversationRequests(t, e.mock); len(reqs) == 0 || reqs[0].Model != model.ModelID {
				t.Errorf("the resume did not ask for the session's model %s", model.ModelID)
			}
		})
	}
}

// pick returns the session with id, or the only one.
func pick(t *testing.T, ss []*session.Session, id string) *session.Session {
	t.Helper()
	for _, s := range ss {
		if id == "" && len(ss) == 1 || s.Meta.ID == id {
			return s
		}
	}
	t.Fatalf("%d sessions, none is %q", len(ss), id)
	return nil
}

type ocModelRef struct {
	ProviderID string `json:"providerID"`
	ModelID    string `json:"modelID"`
}

// ocExpected is the conversation of a session's active path as
// convo.Expected gives it, except that a tool result of several text
// blocks is one result: OpenCode keeps a tool's output as one text, and a
// model API sends it as one. With afterCompaction, only the last
// compaction's summary and what follows it: OpenCode sends the model
// that, not what the summary replaced.
func ocExpected(s *session.Session, afterCompaction bool) []convo.Item {
	path := convtree.NewConversation(convtree.Main(s.Entries), s.Meta.MessageLinks).Path()
	start := 0
	var out []convo.Item
	if afterCompaction {
		for i, e := range path {
			if e.Kind == session.KindCompaction && e.Compaction != nil {
				start = i + 1
				out = []convo.Item{{Kind: convo.Assistant, Text: e.Compaction.Summary}}
			}
		}
	}
	for _, e := range path[start:] {
		if e.Kind != session.KindMessage || e.Message == nil {
			continue
		}
		if e.Message.Role == session.RoleTool {
			out = append(out, convo.Item{Kind: convo.Result, Text: e.Message.Text()})
			continue
		}
		one := &session.Session{Meta: s.Meta, Entries: []*session.Entry{{Kind: e.Kind, ID: e.ID, Message: e.Message}}}
		out = append(out, convo.Expected(one)...)
	}
	return out
}

// exportModel returns an export's session id, the model its last user
// message names (the one `opencode run --session` continues with), and
// whether it holds an OpenCode compaction (a user message's compaction
// part, followed by the summary).
func exportModel(t *testing.T, path string) (string, ocModelRef, bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Info     struct{ ID string } `json:"info"`
		Messages []struct {
			Info struct {
				Role  string      `json:"role"`
				Model *ocModelRef `json:"model"`
			} `json:"info"`
			Parts []struct{ Type string } `json:"parts"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var last ocModelRef
	compacted := false
	for _, m := range doc.Messages {
		if m.Info.Role == "user" && m.Info.Model != nil {
			last = *m.Info.Model
		}
		for _, p := range m.Parts {
			compacted = compacted || p.Type == "compaction"
		}
	}
	if !strings.HasPrefix(doc.Info.ID, "ses_") || last.ModelID == "" {
		t.Fatalf("%s: session %q, last user model %+v", path, doc.Info.ID, last)
	}
	return doc.Info.ID, last, compacted
}
