package oracle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/session"
)

// geminiSources: one session of every other layout sesstool reads, and
// the real sessions: a legacy Gemini CLI document, Claude Code with
// sub-agents, Codex with reasoning, pi with branches.
var geminiSources = []source{
	{name: "tree", layout: "tree", path: "testdata/samples/tree/pi-v3-branches.jsonl"},
	{name: "flat", layout: "flat", path: "testdata/samples/flat/20261121-042424-f487536d.jsonl"},
	{name: "ash", layout: "ash", path: "testdata/samples/ash/generated-v2"},
	{name: "goat", layout: "goat", path: "testdata/samples/goat/generated"},
	{name: "opencode-export", layout: "opencode-export", path: "testdata/samples/opencode/export/v1.1.34__ses_e03a7a64affe0wHc2prdw2R2s7.json"},
	{name: "opencode", layout: "opencode", path: "testdata/samples/opencode/xdg/opencode"},
	{name: "claude", layout: "claude", path: "testdata/samples/claude/store"},
	{name: "codex", layout: "codex", path: "testdata/samples/codex/home"},
	{name: "model", layout: "model", path: "testdata/samples/model/chat.model.jsonl"},
	{name: "gemini-legacy", layout: "gemini", path: "testdata/samples/gemini/legacy.json"},
	{name: "real-gemini-legacy", layout: "gemini", path: "real-world/gemini/kvsankar+agent-history__session-01.json", shared: true},
	{name: "real-claude-subagents", layout: "claude", path: "real-world/claude/marot+spotter__258c7280", shared: true},
	{name: "real-codex-reasoning", layout: "codex", path: "real-world/codex/codemie-ai+codemie-code__rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl", shared: true},
	{name: "real-pi-branches", layout: "tree", path: "real-world/tree/JohnnyLai92+pi-mono__2026-04-21T09-04-26-172Z_9bbf4a26-7ae2-4d77-86fe-4e87ed7cc08c.jsonl", shared: true},
}

// A session of every layout, converted into a Gemini CLI home, is resumed
// by Gemini CLI 0.61.0: the first request it sends the model carries
// every user and assistant text, tool call and tool result of the
// source's active path, in order (but for the user texts the agent leaves
// out of any resumed history), and passes the Gemini linter; the session
// file, with the agent's new turn, still validates and converts back.
func TestGeminiResume(t *testing.T) {
	// under -short, the first source only: pi's tree with branches, the
	// layout furthest from the agent's own
	eachSource(t, short.Cases(t, geminiSources, nil), func(t *testing.T, src source, path string, s *session.Session) {
		env := newGeminiEnv(t)
		sesstool(t, "convert", "--from", src.layout, "--to", "gemini", "--session", s.Meta.ID, "-o", env.geminiHome+"/", path)
		file, id := env.claim(t)
		env.run(t, "--resume", id, "-p", "continue", "--yolo")
		checkGeminiResumed(t, env, 0, s, file, false)
		// The agent appends the resumed turn to the session it was
		// given (it also starts a file of its own at start-up, which
		// holds only its session context).
		if !strings.Contains(readFile(t, file), `"content":[{"text":"continue"}]`) {
			t.Errorf("%s: the resumed turn was not appended: Gemini CLI did not resume the converted session", file)
		}
		back := filepath.Join(t.TempDir(), "back")
		sesstool(t, "convert", "--from", "gemini", "--to", src.layout, "-o", back, file)
	})
}

// claim finds the one session convert filed into the home (its sub-agent
// runs' files aside), under the
// project folder of the source's working directory, and makes that folder
// the work folder's (the source's own directory does not exist here), as
// Gemini CLI claims a folder: .project_root names the project root, and
// projects.json maps the root to the folder. It returns the session file
// and its id.
func (e *geminiEnv) claim(t *testing.T) (file, id string) {
	t.Helper()
	var fs []string
	for _, f := range e.sessionFiles(t) {
		// a sub-agent's run is a file of its own in chats/<parentSessionId>/
		if filepath.Base(filepath.Dir(f)) == "chats" {
			fs = append(fs, f)
		}
	}
	if len(fs) != 1 {
		t.Fatalf("convert filed %q into the Gemini CLI home, want one session", fs)
	}
	file = fs[0]
	folder := filepath.Dir(filepath.Dir(file)) // tmp/<project>/chats/session-*.jsonl
	if err := os.WriteFile(filepath.Join(folder, ".project_root"), []byte(e.work), 0o644); err != nil {
		t.Fatal(err)
	}
	reg, _ := json.Marshal(map[string]any{"projects": map[string]string{e.work: filepath.Base(folder)}})
	if err := os.WriteFile(filepath.Join(e.geminiHome, "projects.json"), reg, 0o644); err != nil {
		t.Fatal(err)
	}
	var meta struct{ SessionID string }
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(strings.SplitN(string(b), "\n", 2)[0]), &meta); err != nil || meta.SessionID == "" {
		t.Fatalf("%s: no sessionId on the first line: %v", file, err)
	}
	return file, meta.SessionID
}
