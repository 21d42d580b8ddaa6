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

// Scripts returns the folder scripts/setup fills with ../shared/peers and
// its node_modules ($SESSTOOL_PEERS, else .cache/peers), and node's path.
func Scripts(t testing.TB) (node, dir string) {
	t.Helper()
	dir = os.Getenv("SESSTOOL_PEERS")
	if dir == "" {
		dir = filepath.Join(RepoRoot(), ".cache", "peers")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		Need(t, "peer scripts not installed in "+dir+" (set SESSTOOL_PEERS or run scripts/setup)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		Need(t, "node is not on PATH: the peer scripts cannot run")
	}
	return node, dir
}

// Ajv returns node and the reference validator script, ajv-jsonl.mjs.
func Ajv(t testing.TB) (node, script string) {
	t.Helper()
	node, dir := Scripts(t)
	return node, filepath.Join(dir, "ajv-jsonl.mjs")
}

// ajvBatch is ajv-jsonl.mjs for many files in one node process: loading
// and compiling the schemas once, not once a file.
//
//go:embed ajv-batch.mjs
var ajvBatch string

// AjvCount is what ajv found in one file: its non-empty lines, and how many
// of them are not JSON or fail the line schema.
type AjvCount struct {
	Path    string `json:"path"`
	Lines   int    `json:"lines"`
	Invalid int    `json:"invalid"`
}

// AjvFiles checks every file against the line schema lineSchema of the
// schema folder dir with ajv (Draft 2020-12), in one node process, and
// returns the counts by the caller's path.
func AjvFiles(t testing.TB, dir, lineSchema string, files []string) map[string]AjvCount {
	t.Helper()
	node, peers := Scripts(t)
	args := []string{"--input-type=module", "-e", ajvBatch}
	named := map[string]string{}
	for _, p := range append([]string{dir, lineSchema}, files...) {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		args, named[a] = append(args, a), p
	}
	cmd := exec.Command(node, args...)
	cmd.Dir = peers // where ajv resolves from
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	hung, err := hangwatch.Run(cmd, hangwatch.Limits{CPU: time.Minute + time.Duration(len(files))*time.Second, Stall: 30 * time.Second})
	if err != nil || hung != "" {
		t.Fatalf("ajv-batch.mjs: %v %s\n%s", err, hung, stderr.String())
	}
	got := map[string]AjvCount{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var c AjvCount
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("ajv-batch.mjs: %v in %q", err, line)
		}
		c.Path = named[c.Path]
		got[c.Path] = c
	}
	for _, p := range files {
		if _, ok := got[p]; !ok {
			t.Fatalf("ajv-batch.mjs said nothing of %s", p)
		}
	}
	return got
}
