package opencode

import (
	"bytes"
	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/schema"
)

// The schema folder works as it is in ajv (the reference validator in
// SESSTOOL_PEERS): every sample object is valid, and a broken one is not.
func TestSchemasInAjv(t *testing.T) {
	_, script := peers.Ajv(t)
	dir := t.TempDir()
	if err := schema.Dump(filepath.Join(dir, "schema")); err != nil {
		t.Fatal(err)
	}
	lines := map[string][][]byte{}
	add := func(kind string, b []byte) {
		c, err := compact(b)
		if err != nil {
			t.Fatal(err)
		}
		lines[kind] = append(lines[kind], c)
	}
	for _, f := range exportSamples(t) {
		b, _ := os.ReadFile(f)
		add("export", b)
	}
	walk := func(sub, kind string) {
		m, _ := filepath.Glob(filepath.Join(treeSample, sub, "*", "*.json"))
		for _, f := range m {
			b, _ := os.ReadFile(f)
			add(kind, b)
		}
	}
	walk("session", "session")
	walk("message", "message")
	walk("part", "part")
	for kind, want := range map[string]string{"export": "9 lines, 0 invalid", "session": "3 lines, 0 invalid", "message": "12 lines, 0 invalid", "part": "33 lines, 0 invalid"} {
		if got := ajv(t, script, dir, kind, lines[kind]); got != want {
			t.Errorf("%s: ajv says %q, want %q", kind, got, want)
		}
	}
	bad := [][]byte{
		[]byte(`{"id":"prt_1fc58c920001VFapSo1QV17ZN3","sessionID":"ses_e03a737e8ffeFPl5pgZjDAnlwG","messageID":"msg_1fc58c90b001Uku7bZWLQtq0ta","type":"markdown"}`),
		[]byte(`{"id":"prt_1fc58c920001VFapSo1QV17ZN3","sessionID":"ses_e03a737e8ffeFPl5pgZjDAnlwG","messageID":"msg_1fc58c90b001Uku7bZWLQtq0ta","type":"tool","callID":"c","tool":"x","state":{"status":"completed","input":{}}}`),
	}
	if got := ajv(t, script, dir, "part", bad); got != "2 lines, 2 invalid" {
		t.Errorf("broken parts: ajv says %q", got)
	}
}

func ajv(t *testing.T, script, dir, kind string, lines [][]byte) string {
	t.Helper()
	data := filepath.Join(dir, kind+".jsonl")
	os.WriteFile(data, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644)
	name := map[string]string{"export": "export.json", "session": "session.json", "message": "message.json", "part": "part.json"}[kind]
	cmd := exec.Command("node", script, filepath.Join(dir, "schema"), filepath.Join(dir, "schema", "opencode", name), data)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(filepath.Dir(script), "node_modules"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if hung, err := hangwatch.Run(cmd, hangwatch.Default); hung != "" {
		t.Fatalf("ajv: %s (%v)", hung, err)
	}
	return strings.TrimSpace(out.String())
}
