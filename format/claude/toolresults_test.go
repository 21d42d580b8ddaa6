package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/tree"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// The fixture: a session whose first large output Claude Code moved to
// tool-results/toolu_01Big.txt (there), and whose second names
// toolu_02Gone.txt (not there).
const (
	trStore = "testdata/toolresults"
	trSID   = "5e1d2c3b-4a59-4867-8a76-b5c4d3e2f1a0"
)

var trFile = filepath.Join(trStore, "projects", "-home-dev-big", trSID+".jsonl")

// A tool result whose side file is missing is a warning at its line; one
// whose side file is there is not.
func TestToolResultsValidate(t *testing.T) {
	rep := &report.Report{}
	if err := (Format{}).Validate(trStore, rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings() {
		if f.Severity == report.Error {
			t.Errorf("error: %s", f.Text())
		}
		if f.Rule == "missing-tool-result-file" {
			got = append(got, f.Text())
			if f.Line != 5 || !strings.Contains(f.Message, "toolu_02Gone.txt") || f.Severity != report.Warning {
				t.Errorf("finding %s, want a warning on line 5 naming toolu_02Gone.txt", f.Text())
			}
		}
	}
	if len(got) != 1 {
		t.Errorf("missing-tool-result-file findings %q, want one", got)
	}
}

// claude -> claude copies tool-results/ byte for byte beside the session
// it writes, under the session's id.
func TestToolResultsCopied(t *testing.T) {
	r, err := (Format{}).Open(format.Ref{Path: trFile})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	written, err := (Format{}).Write(r, out, format.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rel := filepath.Join("projects", "-home-dev-big", trSID, ToolResults, "toolu_01Big.txt")
	want, err := os.ReadFile(filepath.Join(trStore, rel))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, rel))
	if err != nil {
		t.Fatalf("side file not copied: %v (written %v)", err, written)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("side file changed in the copy")
	}
	listed := false
	for _, p := range written {
		listed = listed || p == filepath.Join(out, rel)
	}
	if !listed {
		t.Errorf("the copy is not among the written paths %v", written)
	}
	src, _ := os.ReadFile(trFile)
	if dst, _ := os.ReadFile(written[0]); !bytes.Equal(src, dst) {
		t.Errorf("the session file changed")
	}
}

// Another layout keeps the preview and names each side file as lost.
func TestToolResultsLostElsewhere(t *testing.T) {
	r, err := (Format{}).Open(format.Ref{Path: trFile})
	if err != nil {
		t.Fatal(err)
	}
	lost := &loss.Counter{}
	var buf bytes.Buffer
	reopen := func() (session.Reader, error) { return (Format{}).Open(format.Ref{Path: trFile}) }
	if err := convert.WriteTo(tree.Format{}, &buf, r, format.WriteOptions{Reopen: reopen}, lost); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, it := range lost.Items() {
		if it.Kind == loss.ToolResultFile {
			n += it.Count
		}
	}
	if n != 2 {
		t.Errorf("%d tool-result-file losses, want 2: %v", n, lost.Items())
	}
	if !strings.Contains(buf.String(), "Preview (first 2KB)") {
		t.Errorf("the preview is not kept")
	}
}
