package oracle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/agentrun"
	"github.com/sesstool/sesstool/internal/testkit/mockmodel"
	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// geminiEnv is a throwaway Gemini CLI installation: a HOME whose
// ~/.gemini/settings.json talks only to a new mock, and a work folder.
type geminiEnv struct {
	node, script, home, geminiHome, work string
	mock                                 *mockmodel.Server
}

// newGeminiEnv makes a Gemini CLI home that talks only to a new mock: an
// API key of its own (the mock takes any), and every feature that calls
// out or asks (folder trust, telemetry, usage statistics, auto-update)
// off.
func newGeminiEnv(t *testing.T) *geminiEnv {
	t.Helper()
	node, script := peers.GeminiCLI(t)
	home := t.TempDir()
	e := &geminiEnv{node: node, script: script, home: home, geminiHome: filepath.Join(home, ".gemini"), work: filepath.Join(home, "work")}
	e.mock = mockmodel.Start(t, mockmodel.Default, mockmodel.Gemini()...)
	for _, d := range []string{e.geminiHome, e.work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	settings := map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}, "folderTrust": map[string]any{"enabled": false}},
		"telemetry": map[string]any{"enabled": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"general":   map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
	}
	b, _ := json.MarshalIndent(settings, "", "  ")
	if err := os.WriteFile(filepath.Join(e.geminiHome, "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return e
}

// run runs gemini with args in the work folder and fails the test unless
// it ends well.
func (e *geminiEnv) run(t *testing.T, args ...string) agentrun.Result {
	t.Helper()
	res := agentrun.Run(t, agentrun.Cmd{
		Bin: e.node, Args: append([]string{e.script}, args...), Dir: e.work, Home: e.home,
		Env:      []string{"GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL=" + e.mock.URL, "GEMINI_CLI_NO_RELAUNCH=true"},
		Progress: e.mock.Count,
	})
	if res.Err != nil {
		t.Fatalf("gemini %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), res.Err, res.Stdout, tail(res.Stderr, 4000))
	}
	return res
}

// sessionFiles lists the session files under the Gemini home's tmp/.
func (e *geminiEnv) sessionFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(filepath.Join(e.geminiHome, "tmp"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) && strings.Contains(p, string(filepath.Separator)+"chats"+string(filepath.Separator)) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// turns are the conversation requests the agent sent the mock, in order:
// generateContent calls that declare functions (the model router's side
// request declares none).
func (e *geminiEnv) turns() []mockmodel.Request {
	var out []mockmodel.Request
	for _, r := range e.mock.Requests() {
		if r.Method != "POST" || !strings.Contains(r.Path, "generateContent") && !strings.Contains(r.Path, "GenerateContent") {
			continue
		}
		req, err := mockmodel.ParseGemini(r.Body)
		if err == nil && !mockmodel.GeminiSide(req) {
			out = append(out, r)
		}
	}
	return out
}
