package oracle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/agentrun"
	"github.com/sesstool/sesstool/internal/testkit/convo"
	"github.com/sesstool/sesstool/internal/testkit/mockmodel"
	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// claudeRun is one Claude Code run against a mock: its home, work folder
// and the mock's requests.
type claudeRun struct {
	home, dir string
	mock      *mockmodel.Server
	res       agentrun.Result
}

// claudeEnv is what keeps Claude Code offline: the mock as the API, a
// dummy key, and no traffic beyond the model's requests.
func claudeEnv(mockURL string) []string {
	return []string{
		"ANTHROPIC_BASE_URL=" + mockURL,
		"ANTHROPIC_API_KEY=sk-ant-mock-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1",
	}
}

// runClaude runs Claude Code with args in home and dir against a fresh
// mock playing the default script, and fails the test unless it exits 0.
func runClaude(t *testing.T, home, dir string, args ...string) claudeRun {
	t.Helper()
	return runClaudeOn(t, mockmodel.Anthropic(), home, dir, args...)
}

// runClaudeOn is runClaude against a mock of the given routes.
func runClaudeOn(t *testing.T, routes []mockmodel.Route, home, dir string, args ...string) claudeRun {
	t.Helper()
	bin := peers.ClaudeCode(t)
	mock := mockmodel.Start(t, mockmodel.Default, routes...)
	res := agentrun.Run(t, agentrun.Cmd{Bin: bin, Args: args, Dir: dir, Home: home, Env: claudeEnv(mock.URL), Progress: mock.Count})
	if res.Err != nil {
		t.Fatalf("claude %v: %v\nstdout:\n%s\nstderr:\n%s", args, res.Err, res.Stdout, res.Stderr)
	}
	dump(t, home, mock)
	return claudeRun{home: home, dir: dir, mock: mock, res: res}
}

// dump keeps a run's home and the mock's requests in
// $SESSTOOL_ORACLE_DUMP/<test>/, for looking at what an agent wrote and
// sent when a test fails; nothing without it.
func dump(t *testing.T, home string, mock *mockmodel.Server) {
	root := os.Getenv("SESSTOOL_ORACLE_DUMP")
	if root == "" {
		return
	}
	dir := filepath.Join(root, strings.ReplaceAll(t.Name(), "/", "_"))
	_ = os.RemoveAll(dir)
	if err := os.CopyFS(filepath.Join(dir, "home"), os.DirFS(home)); err != nil {
		t.Logf("dump: %v", err)
	}
	for i, r := range mock.Requests() {
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("request-%02d.json", i)), r.Body, 0o644)
	}
}

// newClaudeDirs makes a throwaway home and work folder; the work folder's
// path is resolved, as Claude Code files a session under the real path.
func newClaudeDirs(t *testing.T) (home, dir string) {
	t.Helper()
	home = t.TempDir()
	dir = filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, _ = filepath.EvalSymlinks(dir)
	return home, dir
}

// claudeMainRequests are the bodies of the requests of the agent's own
// conversation (those offering the shell tool), in order: side requests
// (titles, quota checks) left out.
func claudeMainRequests(t *testing.T, m *mockmodel.Server) [][]byte {
	t.Helper()
	var out [][]byte
	for _, r := range m.RequestsTo("/v1/messages") {
		req, err := mockmodel.ParseAnthropic(r.Body)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range req.Tools {
			if tool.Name == mockmodel.AnthropicMainTool {
				out = append(out, r.Body)
				break
			}
		}
	}
	return out
}

// anthropicItems is the conversation a Messages request sends, as
// convo items: user and assistant texts, tool calls by name, tool results
// by text. Claude Code's "system" messages are no turn of the
// conversation and are left out.
func anthropicItems(t *testing.T, body []byte) []convo.Item {
	t.Helper()
	req, err := mockmodel.ParseAnthropic(body)
	if err != nil {
		t.Fatal(err)
	}
	var out []convo.Item
	for i, m := range req.Messages {
		bs, err := m.Blocks()
		if err != nil {
			t.Fatalf("messages[%d]: %v", i, err)
		}
		for _, b := range bs {
			switch {
			case b.Type == "text" && m.Role == "user":
				out = append(out, convo.Item{Kind: convo.User, Text: b.Text})
			case b.Type == "text" && m.Role == "assistant":
				out = append(out, convo.Item{Kind: convo.Assistant, Text: b.Text})
			case b.Type == "tool_use":
				out = append(out, convo.Item{Kind: convo.Call, Text: b.Name})
			case b.Type == "tool_result":
				out = append(out, convo.Item{Kind: convo.Result, Text: b.ResultText()})
			}
		}
	}
	return out
}

// claudeSessionFile is the one session file under home's projects.
func claudeSessionFile(t *testing.T, home string) string {
	t.Helper()
	fs, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*.jsonl"))
	if len(fs) != 1 {
		t.Fatalf("session files under %s: %v, want one", home, fs)
	}
	return fs[0]
}

// validateClean validates path and fails on an error or an
// unknown-line-type warning: the line types of the pinned version are
// all known.
func validateClean(t *testing.T, path string, unknown ...string) {
	t.Helper()
	out, errOut, code := run(t, "validate", "--output", "json", path)
	var bad []string
	for _, l := range splitLines(out) {
		var f struct {
			Severity, Rule, Message string
			Line                    int
		}
		if json.Unmarshal([]byte(l), &f) == nil && (f.Severity == "error" || f.Rule == "unknown-line-type" && !knownUnknown(f.Message, unknown)) {
			bad = append(bad, l)
		}
	}
	if code != 0 || len(bad) > 0 {
		t.Errorf("validate %s: exit %d, findings:\n%s\n%s", path, code, joinLines(bad), errOut)
	}
}

// knownUnknown says whether an unknown-line-type message names one of
// types: a line type of a source sesstool rightly does not know.
func knownUnknown(msg string, types []string) bool {
	for _, typ := range types {
		if strings.Contains(msg, fmt.Sprintf("line type %q", typ)) {
			return true
		}
	}
	return false
}
