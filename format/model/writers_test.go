package model_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/model"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// TestWriterGoldens is every writer's test: each hand-written model dump
// under testdata/samples/model, read back and written by each layout's
// writer, must give the files and the loss report in
// golden/writers/<dump>/<layout>.txt (-update rewrites them), and what is
// written must validate as that layout.
func TestWriterGoldens(t *testing.T) {
	dumps, err := filepath.Glob("../../testdata/samples/model/*.model.jsonl")
	if err != nil || len(dumps) == 0 {
		t.Fatalf("no model dumps under testdata/samples/model: %v", err)
	}
	writers := 0
	for _, target := range registry.All {
		_, ok := target.(format.Writer)
		if !ok || target.Name() == model.Name {
			continue
		}
		writers++
		for _, d := range dumps {
			name := strings.TrimSuffix(filepath.Base(d), ".model.jsonl")
			t.Run(name+"/"+target.Name(), func(t *testing.T) {
				got := writeDump(t, d, target)
				golden.Assert(t, "writers/"+name+"/"+target.Name()+".txt", got)
			})
		}
	}
	if writers < 5 {
		t.Errorf("only %d writers registered", writers)
	}
}

// writeDump writes the session in the dump at path with target into a new
// folder and returns every file written (the folder's path spelled $OUT)
// and the losses counted, as one text.
func writeDump(t *testing.T, path string, target format.Format) []byte {
	t.Helper()
	open := func() (session.Reader, error) { return model.Format{}.Open(format.Ref{Path: path}) }
	r, err := open()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := dir
	if _, single := target.(format.Stream); single {
		out = filepath.Join(dir, "session.out")
	}
	lost := &loss.Counter{}
	if _, err := convert.Write(target, r, out, format.WriteOptions{Reopen: open}, lost); err != nil {
		t.Fatalf("write: %v", err)
	}
	checkValid(t, target, dir)
	var b bytes.Buffer
	for _, it := range lost.Items() {
		fmt.Fprintf(&b, "loss: %s\n", it)
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&b, "== %s\n", filepath.ToSlash(rel))
		if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
			fmt.Fprintf(&b, "(%d bytes of binary data)\n", len(data))
			return nil
		}
		b.Write(bytes.ReplaceAll(data, []byte(dir), []byte("$OUT")))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			b.WriteString("\n(no newline at end of file)\n")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkValid validates what was written, as convert does before it
// commits: a writer's output must pass that layout's validate.
func checkValid(t *testing.T, target format.Format, dir string) {
	t.Helper()
	units, skipped := pipeline.Walk(dir, target)
	for _, s := range skipped {
		t.Errorf("written but not a %s session: %s (%s)", target.Name(), s.Path, s.Message)
	}
	rep := &report.Report{}
	for _, u := range units {
		if err := u.Format.Validate(u.Path, rep, format.ValidateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range rep.Findings() {
		if f.Severity == report.Error {
			t.Errorf("the output does not validate: %s", f.Text())
		}
	}
}
