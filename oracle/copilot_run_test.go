package oracle

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/agentrun"
	"github.com/sesstool/sesstool/internal/testkit/mockmodel"
	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// copilotModel is the model the tests name: one Copilot has no catalog
// entry for, so that COPILOT_PROVIDER_MAX_PROMPT_TOKENS sets its window
// (for a model it knows, such as gpt-4.1, Copilot keeps the catalog's
// 111,616 tokens and truncates a long resumed session). The mock answers
// any model.
const copilotModel = "mock-model"

// copilotEnv is one offline Copilot CLI: a throwaway home (its
// ~/.copilot), a work folder and the mock model, reached through the
// CLI's own bring-your-own-key provider (COPILOT_PROVIDER_BASE_URL, the
// OpenAI Chat Completions wire) with COPILOT_OFFLINE on, which turns off
// GitHub sign-in, telemetry, web tools and auto-update.
type copilotEnv struct {
	bin, home, work string
	mock            *mockmodel.Server
}

func newCopilotEnv(t *testing.T) *copilotEnv {
	t.Helper()
	e := &copilotEnv{bin: peers.CopilotCLI(t), home: t.TempDir(), work: t.TempDir()}
	e.mock = mockmodel.Start(t, mockmodel.Default, mockmodel.ChatRoute())
	return e
}

// copilotHome is the CLI's home: where session-state/ is.
func (e *copilotEnv) copilotHome() string { return filepath.Join(e.home, ".copilot") }

// run runs copilot with args and fails the test unless it exits 0.
func (e *copilotEnv) run(t *testing.T, args ...string) agentrun.Result {
	t.Helper()
	res := agentrun.Run(t, agentrun.Cmd{
		Bin: e.bin, Args: append(args, "--allow-all-tools", "--no-auto-update", "--model", copilotModel), Dir: e.work, Home: e.home,
		Env: []string{
			"COPILOT_OFFLINE=true",
			"COPILOT_PROVIDER_BASE_URL=" + e.mock.URL + "/v1",
			"COPILOT_PROVIDER_TYPE=openai",
			"COPILOT_PROVIDER_API_KEY=dummy",
			"COPILOT_MODEL=" + copilotModel,
			"COPILOT_AUTO_UPDATE=false",
			// the model's window as large as the longest source needs:
			// the tests check that a resume sends the whole session, which
			// Copilot otherwise truncates to the BYOK model's default window
			"COPILOT_PROVIDER_MAX_PROMPT_TOKENS=2000000",
			"COPILOT_PKG_CACHE_HOME=" + peers.CopilotPkgCache(e.bin),
		},
		Progress: e.mock.Count,
	})
	if res.Err != nil {
		t.Fatalf("copilot %v: %v\nstdout:\n%s\nstderr:\n%s", args, res.Err, res.Stdout, res.Stderr)
	}
	return res
}

// sessions are the session logs under the home, by path.
func (e *copilotEnv) sessions(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(e.copilotHome(), "session-state", "*", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// keep copies the run's log for scripts/agents-latest when it asks.
func (e *copilotEnv) keep(t *testing.T, log, version string) {
	t.Helper()
	out := os.Getenv("SESSTOOL_AGENT_OUT")
	if out == "" {
		return
	}
	if b, err := os.ReadFile(log); err == nil {
		_ = os.WriteFile(filepath.Join(out, "copilot-"+version+".jsonl"), b, 0o644)
	}
}
