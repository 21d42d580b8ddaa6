package codex_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/codex"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// TestInvalidGoldens: the findings for each invalid case, validated with
// the layout forced (as --format codex does).
func TestInvalidGoldens(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.jsonl")
	if len(files) < 2 {
		t.Fatalf("only %d invalid cases", len(files))
	}
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) {
			rep := &report.Report{}
			if err := (codex.Format{}).Validate(p, rep, format.ValidateOptions{Workers: 1}); err != nil {
				t.Fatal(err)
			}
			if rep.Errors() == 0 {
				t.Errorf("no error for an invalid case")
			}
			var b bytes.Buffer
			for _, f := range rep.Findings() {
				b.WriteString(f.Text() + "\n")
			}
			golden.Assert(t, "invalid/"+strings.TrimSuffix(filepath.Base(p), ".jsonl")+".txt", b.Bytes())
		})
	}
}

// TestWriterGolden pins how a pi session is spelt as a rollout, with its
// loss report: the active path, reasoning without encrypted content,
// function calls with string arguments, the events codex app-server shows.
func TestWriterGolden(t *testing.T) {
	tree, _ := registry.Lookup("tree")
	src := "../../testdata/samples/tree/pi-v3-branches.jsonl"
	r, err := tree.Open(format.Ref{Path: src})
	if err != nil {
		t.Fatal(err)
	}
	lost := &loss.Counter{}
	var b bytes.Buffer
	opt := format.WriteOptions{Reopen: func() (session.Reader, error) { return tree.Open(format.Ref{Path: src}) }}
	if err := convert.WriteTo(codex.Format{}, &b, r, opt, lost); err != nil {
		t.Fatal(err)
	}
	rep := &report.Report{}
	if err := (codex.Format{}).ValidateReader("out", bytes.NewReader(b.Bytes()), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if rep.Errors()+rep.Warnings() > 0 {
		t.Errorf("the output does not validate clean: %v", rep.Findings())
	}
	for _, it := range lost.Items() {
		fmt.Fprintf(&b, "loss: %d %s %s (%s)\n", it.Count, it.Kind, it.Action, it.Reason)
	}
	golden.Assert(t, "writer/pi-v3-branches.txt", b.Bytes())
}
