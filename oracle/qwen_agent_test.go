package oracle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/agentrun"
	"github.com/sesstool/sesstool/internal/testkit/mockmodel"
	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// The model the tests configure Qwen Code with (served by the mock).
const qwModel = "mock-model"

// qwEnv is one offline Qwen Code: a throwaway home with a settings.json
// that picks the OpenAI-compatible auth, turns off telemetry, usage
// statistics and update checks, a work folder, and the mock model
// speaking Chat Completions.
type qwEnv struct {
	node, entry, home, work string
	mock                    *mockmodel.Server
}

func newQWEnv(t *testing.T) *qwEnv {
	t.Helper()
	node, entry := peers.QwenCode(t)
	e := &qwEnv{node: node, entry: entry, home: t.TempDir(), work: t.TempDir()}
	// the work folder as Qwen Code sees it (no symlinks), since its
	// project folder is named from that path
	if w, err := filepath.EvalSymlinks(e.work); err == nil {
		e.work = w
	}
	e.mock = mockmodel.Start(t, mockmodel.Default, mockmodel.ChatRoute())
	settings := map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "openai"}},
		"model":     map[string]any{"name": qwModel},
		"general":   map[string]any{"enableAutoUpdate": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
	}
	b, _ := json.MarshalIndent(settings, "", "  ")
	dir := filepath.Join(e.home, ".qwen")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return e
}

// chats is the folder Qwen Code keeps this work folder's sessions in.
func (e *qwEnv) chats() string {
	return filepath.Join(e.home, ".qwen", "projects", qwProjectDir(e.work), "chats")
}

// qwProjectDir is Qwen Code's name for a project folder: the path with
// every character but a letter or digit as '-'.
func qwProjectDir(path string) string {
	return regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(path, "-")
}

// run runs qwen with args offline and fails the test unless it exits 0.
func (e *qwEnv) run(t *testing.T, args ...string) agentrun.Result {
	t.Helper()
	res := agentrun.Run(t, agentrun.Cmd{
		Bin: e.node, Args: append([]string{e.entry}, args...), Dir: e.work, Home: e.home,
		Env: []string{
			"OPENAI_BASE_URL=" + e.mock.URL + "/v1",
			"OPENAI_API_KEY=dummy",
			"OPENAI_MODEL=" + qwModel,
			"QWEN_CODE_NO_RELAUNCH=true",
			"QWEN_TELEMETRY_ENABLED=false",
			"QWEN_CODE_DISABLE_PRECONNECT=1",
			// Anything Qwen Code would fetch from npm fails at once
			// rather than reaching the network.
			"npm_config_registry=http://127.0.0.1:9/",
		},
		Progress: e.mock.Count,
	})
	if res.Err != nil {
		t.Fatalf("qwen %v: %v\nstdout:\n%s\nstderr:\n%s", args, res.Err, res.Stdout, res.Stderr)
	}
	return res
}
