package codex_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/command"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
)

// TestAppServerRoundTripAgentMessages: Codex shows as many agent messages
// for a real rollout after codex -> tree -> codex as for the rollout
// itself. A reply of two texts with calls between them (one message of
// the model) was written with one agent_message event, so Codex showed
// 253 agent messages where the source has 255.
func TestAppServerRoundTripAgentMessages(t *testing.T) {
	bin := peers.Codex(t)
	src := filepath.Join(shared.Dir(), "real-world", "codex", "madshn+localpush__rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl")
	if _, err := os.Stat(src); err != nil {
		peers.Need(t, "the real Codex rollout is not in ../shared: "+err.Error())
	}
	convert := func(from, to, out, in string) string {
		var stdout, stderr bytes.Buffer
		env := &command.Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, StdinIsData: func() bool { return false }}
		if err := command.Convert(env, command.ConvertOptions{From: from, To: to, Out: out, Force: true, Paths: []string{in}}); err != nil {
			t.Fatalf("convert --to %s: %v\n%s", to, err, stderr.String())
		}
		return strings.TrimSpace(stdout.String())
	}
	shown := func(rollout string) (id string, n int) {
		dir := t.TempDir()
		home := filepath.Join(dir, ".codex")
		if err := os.MkdirAll(home, 0o755); err != nil {
			t.Fatal(err)
		}
		files := strings.Fields(convert("codex", "codex", home, rollout))
		if len(files) != 1 {
			t.Fatalf("filing %s wrote %q", rollout, files)
		}
		id = strings.TrimSuffix(filepath.Base(files[0]), ".jsonl")
		id = id[len(id)-36:]
		srv := startServer(t, bin, dir)
		srv.call(t, "initialize", map[string]any{"clientInfo": map[string]any{"name": "sesstool-test", "version": "0"}})
		srv.notify(t, "initialized")
		var read struct {
			Thread struct {
				Turns []struct {
					Items []struct{ Type string } `json:"items"`
				} `json:"turns"`
			} `json:"thread"`
		}
		srv.decode(t, srv.call(t, "thread/read", map[string]any{"threadId": id, "includeTurns": true}), &read)
		for _, turn := range read.Thread.Turns {
			for _, it := range turn.Items {
				if it.Type == "agentMessage" {
					n++
				}
			}
		}
		return id, n
	}
	tree := filepath.Join(t.TempDir(), "s.jsonl")
	convert("codex", "tree", tree, src)
	back := filepath.Join(t.TempDir(), "back.jsonl")
	convert("tree", "codex", back, tree)
	_, want := shown(src)
	_, got := shown(back)
	if want == 0 || got != want {
		t.Errorf("Codex shows %d agent messages after codex -> tree -> codex, %d for the source", got, want)
	}
}
