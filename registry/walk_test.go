package registry

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// marker claims files starting with "MARK" and directories holding a file
// named MARKDIR: just enough of a layout to exercise the walk.
type marker struct{}

func (marker) Name() string      { return "marker" }
func (marker) Aliases() []string { return []string{"mk"} }
func (marker) Detect(p string) bool {
	if _, err := os.Stat(filepath.Join(p, "MARKDIR")); err == nil {
		return true
	}
	return bytes.HasPrefix(format.Head(p, 4), []byte("MARK"))
}
func (marker) Sessions(p string) ([]format.Ref, error)                       { return []format.Ref{{Path: p}}, nil }
func (marker) Open(format.Ref) (session.Reader, error)                       { return nil, nil }
func (marker) Validate(string, *report.Report, format.ValidateOptions) error { return nil }

func TestWalk(t *testing.T) {
	saved := All
	All = []format.Format{marker{}}
	defer func() { All = saved }()

	root := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	write("a/one.jsonl", "MARK1")
	write("a/notes.txt", "hello")
	write("a/stray.jsonl", "{}")
	write("b/sess/MARKDIR", "")
	write("b/sess/inner.jsonl", "MARK-inside-a-claimed-dir")
	write("c/old.jsonl.bak", "MARK-backup")
	write(".hidden/x.jsonl", "MARK-hidden")
	if err := os.Symlink(root, filepath.Join(root, "a", "loop")); err != nil {
		t.Fatal(err)
	}

	units, skipped, err := Walk(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range units {
		rel, _ := filepath.Rel(root, u.Path)
		got = append(got, rel)
	}
	if strings.Join(got, " ") != "a/one.jsonl b/sess" {
		t.Errorf("units = %v, want [a/one.jsonl b/sess]", got)
	}
	var why []string
	for _, s := range skipped {
		rel, _ := filepath.Rel(root, s.Path)
		why = append(why, rel+": "+s.Reason)
	}
	want := []string{"a/loop: directory already visited (symlink loop)", "a/stray.jsonl: not a session in any known format"}
	if strings.Join(why, "\n") != strings.Join(want, "\n") {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(why, "\n"), strings.Join(want, "\n"))
	}

	// A path named on the command line is taken as it is.
	units, _, _ = Walk(filepath.Join(root, "c/old.jsonl.bak"), nil)
	if len(units) != 1 {
		t.Errorf("a named backup is not walked past: %v", units)
	}
	if _, _, err := Walk(filepath.Join(root, "missing"), nil); err == nil {
		t.Error("a missing path is not an error")
	}
}

func TestLookup(t *testing.T) {
	saved := All
	All = []format.Format{marker{}}
	defer func() { All = saved }()
	for _, n := range []string{"marker", "MK", "Marker"} {
		if f, err := Lookup(n); err != nil || f.Name() != "marker" {
			t.Errorf("Lookup(%q) = %v, %v", n, f, err)
		}
	}
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), "known: marker") {
		t.Errorf("Lookup(nope) error = %v", err)
	}
}
