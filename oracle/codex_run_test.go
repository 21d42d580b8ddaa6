package oracle

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/agentrun"
	"github.com/sesstool/sesstool/internal/testkit/mockmodel"
	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// codexEnv is a throwaway Codex installation: a HOME, a CODEX_HOME under
// it configured for the mock and nothing else, and a work folder.
type codexEnv struct {
	bin, home, codexHome, work string
	mock                       *mockmodel.Server
	rolloutsBefore             []string // the rollouts before the agent ran
}

// newCodexEnv makes a Codex home that talks only to a new mock: the mock
// as the model provider (Responses wire API, no retries), no approvals and
// no sandbox (the shell tool runs), and every feature that calls out
// (update checks, analytics, feedback, plugins, apps) off.
func newCodexEnv(t *testing.T) *codexEnv { return newCodexEnvFor(t, "mock") }

// newCodexEnvFor is newCodexEnv with the model provider a session names:
// "mock", a provider of its own, or "openai", Codex's built-in one (a real
// rollout's, which Codex will not resume with another provider), pointed
// at the mock with openai_base_url, the one member of it a config may
// change besides auth and headers.
func newCodexEnvFor(t *testing.T, provider string) *codexEnv {
	t.Helper()
	bin := peers.CodexCLI(t)
	home := t.TempDir()
	e := &codexEnv{bin: bin, home: home, codexHome: filepath.Join(home, ".codex"), work: filepath.Join(home, "work")}
	e.mock = mockmodel.Start(t, mockmodel.Default, mockmodel.Responses()...)
	for _, d := range []string{e.codexHome, e.work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	config := fmt.Sprintf(`model_provider = %q
openai_base_url = %q
model = "gpt-5.3-codex"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = %q
wire_api = "responses"
env_key = "SESSTOOL_MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[feedback]
enabled = false

[features]
plugins = false
remote_plugin = false
apps = false
in_app_updates = false
plugin_sharing = false
`, provider, e.mock.URL+"/v1", e.mock.URL+"/v1")
	if err := os.WriteFile(filepath.Join(e.codexHome, "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return e
}

// run runs codex with args in the work folder and fails the test unless
// it ends well.
func (e *codexEnv) run(t *testing.T, args ...string) agentrun.Result {
	t.Helper()
	res := agentrun.Run(t, agentrun.Cmd{
		Bin: e.bin, Args: args, Dir: e.work, Home: e.home,
		Env:      []string{"CODEX_HOME=" + e.codexHome, "SESSTOOL_MOCK_API_KEY=mock-key", "CODEX_API_KEY=mock-key"},
		Progress: e.mock.Count,
	})
	if res.Err != nil {
		t.Fatalf("codex %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), res.Err, res.Stdout, tail(res.Stderr, 4000))
	}
	return res
}

// posts are the Responses requests the agent sent (the built-in OpenAI
// provider first tries a WebSocket with GETs to the same path).
func (e *codexEnv) posts() []mockmodel.Request {
	var out []mockmodel.Request
	for _, r := range e.mock.RequestsTo("/v1/responses") {
		if r.Method == "POST" {
			out = append(out, r)
		}
	}
	return out
}

// rollouts lists the rollout files under the Codex home.
func (e *codexEnv) rollouts(t *testing.T) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(filepath.Join(e.codexHome, "sessions"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
