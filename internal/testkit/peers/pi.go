package peers

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
)

// piBatch is pi-context.mjs (../shared/peers) for many files in one node
// process: loading pi's module takes seconds of CPU, and once per file it
// was most of the time of the tests that ask pi.
//
//go:embed pi-context-batch.mjs
var piBatch string

// PiSees is what pi's own SessionManager sees in a session file: the
// header version, entries, whether it rewrote the file (a migration of its
// own), and the LLM context it builds (messages, their roles, a digest of
// their text); Error when pi threw on it.
type PiSees struct {
	Path          string         `json:"path"`
	Error         string         `json:"error"`
	Version       int            `json:"version"`
	Entries       int            `json:"entries"`
	RewrittenByPi bool           `json:"rewrittenByPi"`
	Messages      int            `json:"messages"`
	Roles         map[string]int `json:"roles"`
	Digest        string         `json:"digest"`
}

// Pi returns node, or skips (fails under SESSTOOL_REQUIRE_PEERS=1) when
// node or pi's package ($SESSTOOL_PEERS, from scripts/setup) is missing.
func Pi(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("SESSTOOL_PEERS")
	node, err := exec.LookPath("node")
	switch {
	case dir == "":
		Need(t, "pi peer not available: SESSTOOL_PEERS is not set (run scripts/setup; it is .cache/peers)")
	case err != nil:
		Need(t, "pi peer not available: node is not on PATH")
	default:
		if _, err := os.Stat(dir + "/node_modules/@mariozechner/pi-coding-agent"); err != nil {
			Need(t, "pi peer not available: no node_modules/@mariozechner/pi-coding-agent in "+dir)
		}
	}
	return node
}

// PiContexts has pi open every path in one node process, each from a
// private copy (pi rewrites a file it migrates), and returns what it saw
// of each by path.
func PiContexts(t testing.TB, node string, paths []string) map[string]PiSees {
	t.Helper()
	seen := map[string]PiSees{}
	if len(paths) == 0 {
		return seen
	}
	// node runs in the peers folder: relative paths are made absolute,
	// and what it says of each is given back under the caller's name.
	abs, named := make([]string, len(paths)), map[string]string{}
	for i, p := range paths {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		abs[i], named[a] = a, p
	}
	cmd := exec.Command(node, append([]string{"--input-type=module", "-e", piBatch}, abs...)...)
	cmd.Dir = os.Getenv("SESSTOOL_PEERS") // where pi's module resolves from
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	// About a tenth of a second of CPU a file once pi is loaded: a run
	// past this budget, or one that stops using CPU, is stuck.
	hung, err := hangwatch.Run(cmd, hangwatch.Limits{CPU: time.Minute + time.Duration(len(paths))*time.Second, Stall: 30 * time.Second})
	if err != nil || hung != "" {
		t.Fatalf("pi-context-batch.mjs: %v %s\n%s", err, hung, stderr.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var c PiSees
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("pi-context-batch.mjs: %v in %q", err, line)
		}
		seen[named[c.Path]] = c
	}
	for _, p := range paths {
		if _, ok := seen[p]; !ok {
			t.Errorf("pi-context-batch.mjs said nothing of %s", p)
		}
	}
	return seen
}
