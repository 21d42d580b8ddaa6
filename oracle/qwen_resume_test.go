package oracle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format/qwen"
	"github.com/sesstool/sesstool/internal/testkit/convo"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// qwenSources are one session of every layout sesstool reads, and a real
// Claude Code session with sub-agents and a compaction.
var qwenSources = []source{
	{name: "tree", layout: "tree", path: "testdata/samples/tree/pi-v3-branches.jsonl"},
	{name: "flat", layout: "flat", path: "testdata/samples/flat/20261121-042424-f487536d.jsonl"},
	{name: "ash", layout: "ash", path: "testdata/samples/ash/generated-v2/sessions/cli"},
	{name: "goat", layout: "goat", path: "testdata/samples/goat/generated", session: "3e7dfd39-96f7-438f-86f9-7f773e6d5295"},
	{name: "codex", layout: "codex", path: "testdata/samples/codex/home", session: "0195f0a0-0000-7000-8000-000000000001"},
	{name: "opencode", layout: "opencode", path: "testdata/samples/opencode/xdg/opencode", session: "ses_e03a7a64affe0wHc2prdw2R2s7"},
	{name: "opencode-export", layout: "opencode-export", path: "testdata/samples/opencode/export/v1.1.34__ses_e03a7a64affe0wHc2prdw2R2s7.json"},
	{name: "claude", layout: "claude", path: "testdata/samples/claude/store"},
	{name: "model", layout: "model", path: "testdata/samples/model/chat.model.jsonl"},
	{name: "real-claude-subagents", layout: "claude", path: "real-world/claude/marot+spotter__258c7280", shared: true},
}

// TestQwenResumesConverted: a session of each layout, converted into a
// Qwen Code home (filed at projects/<project folder>/chats/<id>.jsonl),
// is resumed by Qwen Code 0.24.4; its first request carries every item of
// the source's active path in order and passes the linter; afterwards the
// file still validates and converts back. Qwen Code resumes only a
// session of the folder it runs in (the cwd its lines name), so the
// converted session is moved to the test's work folder first, its cwd
// with it, as a user who moved the project would.
func TestQwenResumesConverted(t *testing.T) {
	peers.QwenCode(t)
	// under -short, the first source only: pi's tree with branches, the
	// layout furthest from the agent's own
	eachSource(t, short.Cases(t, qwenSources, nil), func(t *testing.T, src source, path string, s *session.Session) {
		e := newQWEnv(t)
		store := filepath.Join(t.TempDir(), ".qwen")
		args := []string{"convert", "--from", src.layout, "--to", "qwen", "-o", store + "/"}
		if src.session != "" {
			args = append(args, "--session", src.session)
		}
		sesstool(t, append(args, path)...)
		files, _ := filepath.Glob(filepath.Join(store, qwen.ProjectsDir, "*", qwen.ChatsDir, "*.jsonl"))
		if len(files) != 1 {
			t.Fatalf("convert wrote %v, want one session file", files)
		}
		cwd := s.Meta.Cwd
		if cwd == "" {
			cwd = "/"
		}
		if got, want := filepath.Base(filepath.Dir(filepath.Dir(files[0]))), qwen.ProjectDir(cwd); got != want {
			t.Errorf("filed under projects/%s, Qwen Code looks in projects/%s", got, want)
		}
		file := filepath.Join(e.chats(), filepath.Base(files[0]))
		moveProject(t, files[0], file, cwd, e.work)
		id := strings.TrimSuffix(filepath.Base(file), ".jsonl")
		before := e.mock.Count()
		e.run(t, "--resume", id, "-p", "continue", "--yolo")
		qwCheckResumed(t, e, before, qwenExpected(s), file)
	})
}

// moveProject copies the session file from to to, its cwd now dir.
func moveProject(t *testing.T, from, to, cwd, dir string) {
	t.Helper()
	b := readOrFail(t, from)
	old, now := `"cwd":`+string(jsonx.AppendString(nil, cwd)), `"cwd":`+string(jsonx.AppendString(nil, dir))
	if !strings.Contains(b, old) {
		t.Fatalf("%s names no cwd %s", from, old)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, []byte(strings.ReplaceAll(b, old, now)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// qwenExpected is what Qwen Code sends on resuming s: the items of its
// active path, a tool message's text blocks as the one output text its
// functionResponse holds (a sub-agent's result and its trailer, say).
func qwenExpected(s *session.Session) []convo.Item {
	entries := make([]*session.Entry, len(s.Entries))
	for i, e := range s.Entries {
		entries[i] = e
		if e.Message != nil && e.Message.Role == session.RoleTool && len(e.Message.Content) > 1 {
			c, m := *e, *e.Message
			m.Content = []session.Block{{Type: session.BlockText, Text: e.Message.Text()}}
			c.Message = &m
			entries[i] = &c
		}
	}
	return convo.Expected(&session.Session{Meta: s.Meta, Entries: entries})
}
