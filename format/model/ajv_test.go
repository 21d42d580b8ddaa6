package model_test

import (
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/peers"
)

// TestSchemasInAjv proves the schema folder works as it is in a standard
// validator: ajv loads every schema by $id and checks each line of a dump
// against model/v1/line.json, and agrees with sesstool on which dumps the
// schema refuses.
func TestSchemasInAjv(t *testing.T) {
	node, script := peers.Ajv(t)
	dir := "../../schema/model/v1"
	var dumps []string
	err := filepath.WalkDir("golden/samples", func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".model.jsonl") {
			dumps = append(dumps, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dumps) < 10 {
		t.Fatalf("only %d dumps", len(dumps))
	}
	cases := []struct {
		file  string
		valid bool
	}{
		{"testdata/invalid/duplicate-id-dangling-parent.jsonl", true}, // warnings only
		{"testdata/invalid/unknown-member.jsonl", false},
		{"testdata/invalid/schema.jsonl", false},
		{"testdata/invalid/unknown-version.jsonl", false},
	}
	for _, d := range dumps {
		cases = append(cases, struct {
			file  string
			valid bool
		}{d, true})
	}
	for _, c := range cases {
		out, err := exec.Command(node, script, dir, filepath.Join(dir, "line.json"), c.file).CombinedOutput()
		got := strings.TrimSpace(string(out))
		if c.valid && (err != nil || !strings.HasSuffix(got, " 0 invalid")) {
			t.Errorf("%s: ajv rejects a valid dump: %v: %s", c.file, err, got)
		}
		if !c.valid && (err == nil || !strings.HasSuffix(got, " 1 invalid")) {
			t.Errorf("%s: ajv accepts an invalid dump: %v: %s", c.file, err, got)
		}
	}
}
