package oracle

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/agentrun"
	"github.com/sesstool/sesstool/internal/testkit/mockmodel"
	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// The provider and model the tests configure OpenCode with.
const (
	ocProvider = "mock"
	ocModel    = "mock-model"
)

// ocEnv is one offline OpenCode: a throwaway home holding every XDG
// directory, a work folder, the mock model, and an opencode.json that
// reaches the mock through the bundled @ai-sdk/openai-compatible provider
// and lets the bash tool run without asking.
type ocEnv struct {
	bin, home, work string
	mock            *mockmodel.Server
	// models the config offers beside mock/mock-model, by provider id,
	// all served by the mock: the models a converted session names, as a
	// user who has them configured would offer them
	offered map[string][]string
}

func newOCEnv(t *testing.T) *ocEnv {
	t.Helper()
	e := &ocEnv{bin: peers.OpenCodeAgent(t), home: t.TempDir(), work: t.TempDir(), offered: map[string][]string{ocProvider: {ocModel}}}
	e.mock = mockmodel.Start(t, mockmodel.Default, mockmodel.ChatRoute())
	e.writeConfig(t)
	return e
}

// offer makes the config offer provider/model too (served by the mock).
func (e *ocEnv) offer(t *testing.T, provider, model string) {
	t.Helper()
	for _, m := range e.offered[provider] {
		if m == model {
			return
		}
	}
	e.offered[provider] = append(e.offered[provider], model)
	e.writeConfig(t)
}

func (e *ocEnv) writeConfig(t *testing.T) {
	t.Helper()
	providers := map[string]any{}
	for p, models := range e.offered {
		ms := map[string]any{}
		for _, m := range models {
			ms[m] = map[string]any{"name": m}
		}
		providers[p] = map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "Mock " + p,
			"options": map[string]any{"baseURL": e.mock.URL + "/v1", "apiKey": "dummy"},
			"models":  ms,
		}
	}
	cfg := map[string]any{
		"$schema":     "https://opencode.ai/config.json",
		"provider":    providers,
		"model":       ocProvider + "/" + ocModel,
		"small_model": ocProvider + "/" + ocModel,
		"permission":  map[string]any{"bash": "allow"},
		"autoupdate":  false,
		"share":       "disabled",
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	dir := filepath.Join(e.home, ".config", "opencode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "opencode.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// dataDir is where OpenCode keeps its database.
func (e *ocEnv) dataDir() string { return filepath.Join(e.home, ".local", "share", "opencode") }

func (e *ocEnv) db() string { return filepath.Join(e.dataDir(), "opencode.db") }

// run runs opencode with args offline and fails the test unless it exits 0.
func (e *ocEnv) run(t *testing.T, args ...string) agentrun.Result {
	t.Helper()
	res := e.try(t, args...)
	if res.Err != nil {
		t.Fatalf("opencode %v: %v\nstdout:\n%s\nstderr:\n%s", args, res.Err, res.Stdout, res.Stderr)
	}
	return res
}

// try runs opencode with args offline and returns how it ended.
func (e *ocEnv) try(t *testing.T, args ...string) agentrun.Result {
	t.Helper()
	return agentrun.Run(t, agentrun.Cmd{
		Bin: e.bin, Args: args, Dir: e.work, Home: e.home,
		Env: []string{
			"XDG_CONFIG_HOME=" + filepath.Join(e.home, ".config"),
			"XDG_DATA_HOME=" + filepath.Join(e.home, ".local", "share"),
			"XDG_CACHE_HOME=" + filepath.Join(e.home, ".cache"),
			"XDG_STATE_HOME=" + filepath.Join(e.home, ".local", "state"),
			"OPENCODE_DISABLE_MODELS_FETCH=1",
			"OPENCODE_DISABLE_AUTOUPDATE=1",
			"OPENCODE_DISABLE_LSP_DOWNLOAD=1",
			"OPENCODE_DISABLE_DEFAULT_PLUGINS=1",
			"OPENCODE_DISABLE_SHARE=1",
			"OPENCODE_DISABLE_CLAUDE_CODE=1",
			// Anything OpenCode would fetch from npm fails at once
			// rather than reaching the network.
			"npm_config_registry=http://127.0.0.1:9/",
		},
		Progress: e.mock.Count,
	})
}

// sesstool runs sesstool as the user of this OpenCode: with its config
// folder, where the converter looks for OpenCode's default model.
func (e *ocEnv) sesstool(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(e.home, ".config"), "OPENCODE_CONFIG=")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sesstool %v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}
