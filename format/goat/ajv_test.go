package goat

import (
	"bytes"
	"encoding/json"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/schema"
)

// TestSchemasInAjv checks that the schema folder works as-is in ajv (the
// reference validator), over every sample file and the schema invalid case.
func TestSchemasInAjv(t *testing.T) {
	node, script := peers.Ajv(t)
	dir := t.TempDir()
	if err := schema.Dump(dir); err != nil {
		t.Fatal(err)
	}
	run := func(schemaFile, data string, wantOK bool) {
		t.Helper()
		out, err := exec.Command(node, script, dir, filepath.Join(dir, schemaFile), data).CombinedOutput()
		if ok := err == nil; ok != wantOK {
			t.Errorf("ajv %s %s: ok=%v, want %v: %s", schemaFile, data, ok, wantOK, out)
		}
		if !strings.Contains(string(out), "lines") {
			t.Errorf("ajv %s %s: %s", schemaFile, data, out)
		}
	}
	// JSON files become a one-line JSONL file.
	oneLine := func(p string) string {
		var b bytes.Buffer
		if err := json.Compact(&b, mustRead(t, p)); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(t.TempDir(), "one.jsonl")
		os.WriteFile(f, append(b.Bytes(), '\n'), 0o644)
		return f
	}
	for _, d := range sampleSessions(t) {
		run("goat/v1/line.json", filepath.Join(d, MessagesFile), true)
		run("goat/v1/metadata.json", oneLine(filepath.Join(d, MetadataFile)), true)
		if exists(filepath.Join(d, TranscriptFile)) {
			run("goat/v1/transcript-line.json", filepath.Join(d, TranscriptFile), true)
		}
		ms, _ := filepath.Glob(filepath.Join(d, CheckpointsDir, "*", ManifestFile))
		for _, m := range ms {
			run("goat/v1/manifest.json", oneLine(m), true)
		}
	}
	run("goat/v1/line.json", filepath.Join("testdata/invalid/schema/sessions/3e7dfd39-96f7-438f-86f9-7f773e6d5295", MessagesFile), false)
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }
