package oracle

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/internal/testkit/short"
)

// realCodex lists the real Codex rollouts in ../shared/real-world/codex.
func realCodex(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(shared.Dir(), "real-world", "codex", "*.jsonl"))
	if len(files) < 8 {
		peers.Need(t, "the real Codex rollouts are not in "+filepath.Join(shared.Dir(), "real-world", "codex"))
	}
	return files
}

// Every real Codex rollout converts into every other layout, its web
// searches (calls without a call_id) included: each call gets an id of its
// own, where they all had "" and ash's own check refused the output
// ("tool_use id \"\" is used twice").
//
// Under -short, one rollout converts: codemie-ai's, with web searches.
func TestCodexRealWorldConverts(t *testing.T) {
	withSearches := func(f string) bool {
		return strings.Contains(f, "codemie-ai+codemie-code__rollout-2026-05-11T13-28-45-")
	}
	for _, f := range short.Cases(t, realCodex(t), withSearches) {
		for _, to := range []string{"ash", "claude", "tree", "opencode-export", "flat", "goat"} {
			t.Run(filepath.Base(f)+"/"+to, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out")
				if _, errOut, code := run(t, "convert", "--to", to, "-o", out, f); code != 0 {
					t.Errorf("convert --to %s exited %d:\n%s", to, code, tail(errOut, 2000))
				}
			})
		}
	}
}

// Codex lists a thread only when it shows a user message in it. The real
// rollout of codemie-ai recorded its prompts only as user_message events;
// after codex -> tree -> codex they were lost, and Codex's `resume --last`
// (the newest listed thread, any folder) did not find the thread: it
// started a new one. Codex 0.171.0 decides: it resumes the converted thread.
func TestCodexListsRoundTrip(t *testing.T) {
	var src string
	for _, f := range realCodex(t) {
		if strings.Contains(f, "codemie-ai+codemie-code__rollout-2026-05-11T13-28-45-") {
			src = f
		}
	}
	if src == "" {
		t.Fatal("the codemie-ai rollout of 13-28-45 is not among the real Codex rollouts")
	}
	env := newCodexEnvFor(t, "openai")
	tree := filepath.Join(t.TempDir(), "s.jsonl")
	sesstool(t, "convert", "--to", "tree", "-o", tree, src)
	sesstool(t, "convert", "--from", "tree", "--to", "codex", "-o", env.codexHome, tree)
	_, id := mainRollout(t, env)
	res := env.run(t, "exec", "--skip-git-repo-check", "resume", "--last", "--all", "continue")
	if !strings.Contains(res.Stderr, "session id: "+id) {
		t.Errorf("codex resume --last did not resume the converted thread %s:\n%s", id, tail(res.Stderr, 1500))
	}
	if rs := env.rollouts(t); len(rs) != 1 {
		t.Errorf("Codex wrote a new thread: %q", rs)
	}
}
