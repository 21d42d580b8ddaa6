package oracle

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format/claude"
	"github.com/sesstool/sesstool/internal/testkit/convo"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// claudeSources are one session of every layout sesstool reads, and the
// real ones that stress the writer: Claude Code's with sub-agents, Codex's
// with reasoning and web searches, pi's with branches, OpenCode's.
var claudeSources = []source{
	{name: "tree", layout: "tree", path: "testdata/samples/tree/pi-v3-branches.jsonl"},
	{name: "flat", layout: "flat", path: "testdata/samples/flat/20261121-042424-f487536d.jsonl"},
	{name: "ash", layout: "ash", path: "testdata/samples/ash/generated-v2/sessions/cli"},
	{name: "goat", layout: "goat", path: "testdata/samples/goat/generated", session: "3e7dfd39-96f7-438f-86f9-7f773e6d5295"},
	{name: "codex", layout: "codex", path: "testdata/samples/codex/home", session: "0195f0a0-0000-7000-8000-000000000001"},
	{name: "opencode", layout: "opencode", path: "testdata/samples/opencode/xdg/opencode", session: "ses_e03a7a64affe0wHc2prdw2R2s7"},
	{name: "opencode-export", layout: "opencode-export", path: "testdata/samples/opencode/export/v1.1.34__ses_e03a7a64affe0wHc2prdw2R2s7.json"},
	{name: "claude", layout: "claude", path: "testdata/samples/claude/store", unknown: []string{"frame-link"}},
	{name: "model", layout: "model", path: "testdata/samples/model/chat.model.jsonl"},
	{name: "real-claude-subagents", layout: "claude", path: "real-world/claude/marot+spotter__258c7280", shared: true},
	{name: "real-codex-reasoning-websearch", layout: "codex", path: "real-world/codex/codemie-ai+codemie-code__rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl", shared: true},
	{name: "real-tree-branches", layout: "tree", path: "real-world/tree/twKrash+pi-session-inspector__branching.jsonl", shared: true},
	// no title and prompts that open with a tag: listed by its last-prompt line
	{name: "tree-tag-prompt", layout: "tree", path: "samples/pi/earendil-pi_prompt-cache-replay-session.v1.jsonl", shared: true},
	{name: "real-opencode", layout: "opencode", path: "real-world/opencode/Burdis28+burdis28.github.io__opencode", shared: true},
}

// TestClaudeResumesConverted is the definition of done for convert --to
// claude: a session of each layout, converted into a throwaway Claude
// Code store (where Claude Code looks: projects/<its folder for the
// cwd>), is resumed by Claude Code with no workaround flag; its first
// request carries every item of the source's active path in order and
// passes the linter (a thinking block the API would refuse is not sent);
// afterwards the file still validates and converts back.
func TestClaudeResumesConverted(t *testing.T) {
	peers.ClaudeCode(t)
	// under -short, the first source only: pi's tree with branches, the
	// layout furthest from the agent's own
	eachSource(t, short.Cases(t, claudeSources, nil), func(t *testing.T, src source, path string, s *session.Session) {
		home, dir := newClaudeDirs(t)
		store := filepath.Join(home, ".claude")
		args := []string{"convert", "--from", src.layout, "--to", "claude", "-o", store}
		if src.session != "" {
			args = append(args, "--session", src.session)
		}
		sesstool(t, append(args, path)...)
		file := claudeSessionFile(t, home)
		if s.Meta.Cwd != "" {
			if got, want := filepath.Dir(file), filepath.Join(store, "projects", claude.EncodeCwd(s.Meta.Cwd)); got != want {
				t.Errorf("written to %s, Claude Code looks in %s", got, want)
			}
		}
		var trusted func(string) bool
		if src.layout == "claude" {
			trusted = signaturesOf(s) // Anthropic's own, written by Claude Code
		}
		id := strings.TrimSuffix(filepath.Base(file), ".jsonl")
		r := runClaude(t, home, dir, "--resume", id, "-p", "continue", "--allowedTools", "Bash")
		checkClaudeResume(t, r, claudeExpected(s, src.layout == "claude"), trusted)
		validateClean(t, file, src.unknown...)
		sesstool(t, "convert", "--from", "claude", "--to", src.layout, "-o", filepath.Join(t.TempDir(), "back"), file)
	})
}

// claudeExpected is what Claude Code sends the model on resuming s: the
// items of the active path, from its last compaction on when Claude Code
// wrote it (its compact_boundary line: Claude Code sends the summary and
// what follows; a compaction of another layout is a summary line in the
// conversation, and all of it is sent, the summary as a user's text: the
// user message the Agent SDK counts beyond info's), with the calls of
// the sub-agent tool under the name Claude Code 2.1.332 gives it in the
// request (Task is now Agent), and without the trailer of a sub-agent's
// result.
func claudeExpected(s *session.Session, fromCompaction bool) []convo.Item {
	path := convtree.NewConversation(convtree.Main(s.Entries), s.Meta.MessageLinks).Path()
	from := 0
	for i, e := range path {
		if fromCompaction && e.Kind == session.KindCompaction {
			from = i
		}
	}
	if from > 0 {
		// the path from the compaction on, as a chain of its own
		tail := make([]*session.Entry, 0, len(path)-from)
		for i, e := range path[from:] {
			c := *e
			c.ParentID = ""
			if i > 0 {
				c.ParentID = path[from+i-1].ID
			}
			if c.Kind == session.KindCompaction && c.Compaction != nil {
				// the summary is sent as the user's text
				c.Kind, c.Message = session.KindMessage, &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: c.Compaction.Summary}}}
			}
			tail = append(tail, &c)
		}
		s = &session.Session{Meta: s.Meta, Entries: tail}
	} else {
		// a compaction of another layout is a summary line amid the
		// conversation, which Claude Code sends as the user's text
		entries := make([]*session.Entry, len(s.Entries))
		for i, e := range s.Entries {
			entries[i] = e
			if e.Kind == session.KindCompaction && e.Compaction != nil {
				c := *e
				c.Kind, c.Message = session.KindMessage, &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: e.Compaction.Summary}}}
				entries[i] = &c
			}
		}
		s = &session.Session{Meta: s.Meta, Entries: entries}
	}
	var items []convo.Item
	for _, it := range convo.Expected(s) {
		switch {
		case it.Kind == convo.Call && it.Text == "Task":
			it.Text = "Agent"
		case it.Kind == convo.Result && strings.HasPrefix(it.Text, "agentId: ") && strings.Contains(it.Text, "<usage>"):
			// the trailer Claude Code adds to a sub-agent's result for
			// itself (the run's id and usage); it never sends it back
			continue
		}
		items = append(items, it)
	}
	return items
}

// pickSession reads the session of a source: the one with id, else the
// only one.
func pickSession(t *testing.T, layout, path, id string) *session.Session {
	t.Helper()
	ss := convo.Sessions(t, layout, path)
	for _, s := range ss {
		if id == "" && len(ss) == 1 || s.Meta.ID == id {
			return s
		}
	}
	t.Fatalf("%s: no session %q among %d", path, id, len(ss))
	return nil
}

// signaturesOf says whether a signature is one of the session's thinking
// signatures.
func signaturesOf(s *session.Session) func(string) bool {
	sigs := map[string]bool{}
	for _, e := range s.Entries {
		if e.Message == nil {
			continue
		}
		for _, b := range e.Message.Content {
			if b.Type == session.BlockThinking && b.Signature != "" {
				sigs[b.Signature] = true
			}
		}
	}
	return func(sig string) bool { return sigs[sig] }
}
