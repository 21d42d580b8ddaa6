package model_test

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// TestSchemasInAjv proves the schema folder works as it is in a standard
// validator: ajv loads every schema by $id and checks each line of a dump
// against model/v1/line.json, and agrees with sesstool on which dumps the
// schema refuses.
func TestSchemasInAjv(t *testing.T) {
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
	var files []string
	for _, c := range cases {
		files = append(files, c.file)
	}
	got := peers.AjvFiles(t, dir, filepath.Join(dir, "line.json"), files)
	for _, c := range cases {
		n := got[c.file]
		if c.valid && (n.Lines == 0 || n.Invalid != 0) {
			t.Errorf("%s: ajv rejects a valid dump: %+v", c.file, n)
		}
		if !c.valid && n.Invalid != 1 {
			t.Errorf("%s: ajv does not find the one invalid line: %+v", c.file, n)
		}
	}
}
