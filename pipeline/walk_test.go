package pipeline

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// marker claims files starting with "MARK", directories holding a file
// named MARKDIR, and (as a folder of sessions, like an ash or goat store)
// directories holding such a directory: just enough of a layout to
// exercise the walk.
type marker struct{}

func (marker) Name() string      { return "marker" }
func (marker) Aliases() []string { return []string{"mk"} }
func (m marker) Detect(p string) bool {
	return isMarkDir(p) || bytes.HasPrefix(format.Head(p, 4), []byte("MARK")) || len(markDirsIn(p)) > 0
}
func isMarkDir(p string) bool {
	_, err := os.Stat(filepath.Join(p, "MARKDIR"))
	return err == nil
}
func markDirsIn(p string) []format.Ref {
	ents, _ := os.ReadDir(p)
	var out []format.Ref
	for _, e := range ents {
		if c := filepath.Join(p, e.Name()); e.IsDir() && isMarkDir(c) {
			out = append(out, format.Ref{Path: c})
		}
	}
	return out
}
func (marker) Sessions(p string) ([]format.Ref, error) {
	if fi, err := os.Stat(p); err == nil && fi.IsDir() && !isMarkDir(p) {
		return markDirsIn(p), nil
	}
	if !isMarkDir(p) && !bytes.HasPrefix(format.Head(p, 4), []byte("MARK")) {
		return nil, nil
	}
	return []format.Ref{{Path: p}}, nil
}
func (marker) Open(format.Ref) (session.Reader, error)                       { return nil, nil }
func (marker) Validate(string, *report.Report, format.ValidateOptions) error { return nil }

func withMarker(t *testing.T) {
	saved := registry.All
	registry.All = []format.Format{marker{}}
	t.Cleanup(func() { registry.All = saved })
}

func tree(t *testing.T, files map[string]string) string {
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func rels(root string, units []Unit, skips []Skip) (string, string) {
	var u, s []string
	for _, x := range units {
		rel, _ := filepath.Rel(root, x.Path)
		u = append(u, rel)
	}
	for _, x := range skips {
		rel, _ := filepath.Rel(root, x.Path)
		s = append(s, rel+": "+string(x.Severity())+" "+x.Rule)
	}
	return strings.Join(u, " "), strings.Join(s, "\n")
}

func TestWalk(t *testing.T) {
	withMarker(t)
	root := tree(t, map[string]string{
		"a/one.jsonl":        "MARK1",
		"a/notes.txt":        "hello",
		"a/stray.jsonl":      "{}",
		"b/sess/MARKDIR":     "",
		"b/sess/inner.jsonl": "MARK-inside-a-claimed-dir",
		"b/junk.jsonl":       "{}",
		"c/old.jsonl.bak":    "MARK-backup",
		".hidden/x.jsonl":    "MARK-hidden",
	})
	if err := os.Symlink(root, filepath.Join(root, "a", "loop")); err != nil {
		t.Fatal(err)
	}
	units, skips := Walk(root, nil)
	gotU, gotS := rels(root, units, skips)
	// b holds a session directory and a stray file: it is walked, not
	// taken whole, so the stray file is seen.
	if gotU != "a/one.jsonl b/sess" {
		t.Errorf("units = %s, want a/one.jsonl b/sess", gotU)
	}
	want := strings.Join([]string{
		"a/loop: warning symlink-loop",
		"a/notes.txt: warning unknown-format",
		"a/stray.jsonl: warning unknown-format",
		"b/junk.jsonl: warning unknown-format",
	}, "\n")
	if gotS != want {
		t.Errorf("skipped:\n%s\nwant:\n%s", gotS, want)
	}

	// A path named on the command line is taken as it is.
	if units, _ := Walk(filepath.Join(root, "c/old.jsonl.bak"), nil); len(units) != 1 {
		t.Errorf("a named backup is not walked past: %v", units)
	}
}

func TestWalkNamed(t *testing.T) {
	withMarker(t)
	root := tree(t, map[string]string{"plain.jsonl": "{}", "empty/.keep": "", "sess/MARKDIR": ""})
	for _, tc := range []struct {
		path   string
		forced format.Format
		want   string
		code   int
	}{
		{"missing", nil, "missing: error missing", 3},
		{"plain.jsonl", nil, "plain.jsonl: error unknown-format", 1},
		{"empty", nil, "empty: error no-sessions", 1},
		{"plain.jsonl", marker{}, "plain.jsonl: error format-mismatch", 1},
		{"sess", marker{}, "", 0},
	} {
		_, skips := Walk(filepath.Join(root, tc.path), tc.forced)
		_, got := rels(root, nil, skips)
		if got != tc.want || Code(skips) != tc.code {
			t.Errorf("Walk(%s, %v) = %q (exit %d), want %q (exit %d)", tc.path, tc.forced, got, Code(skips), tc.want, tc.code)
		}
	}
}

// An unreadable folder inside a store is a warning and the walk goes on;
// named, it is an error with exit 3. Permissions cannot make a folder
// unreadable for root, so the listing is made to fail here.
func TestWalkUnreadableFolder(t *testing.T) {
	withMarker(t)
	root := tree(t, map[string]string{"good.jsonl": "MARK", "locked/x.jsonl": "MARK"})
	saved := readDir
	readDir = func(p string) ([]os.DirEntry, error) {
		if filepath.Base(p) == "locked" {
			return nil, &fs.PathError{Op: "open", Path: p, Err: errors.New("permission denied")}
		}
		return saved(p)
	}
	t.Cleanup(func() { readDir = saved })

	units, skips := Walk(root, nil)
	gotU, gotS := rels(root, units, skips)
	if gotU != "good.jsonl" || gotS != "locked: warning unreadable" || Code(skips) != 0 {
		t.Errorf("store: units %q, skips %q, exit %d", gotU, gotS, Code(skips))
	}
	if skips[0].Message != "cannot be read: permission denied" {
		t.Errorf("message %q", skips[0].Message)
	}
	units, skips = Walk(filepath.Join(root, "locked"), nil)
	gotU, gotS = rels(root, units, skips)
	if gotU != "" || gotS != "locked: error unreadable" || Code(skips) != 3 {
		t.Errorf("named: units %q, skips %q, exit %d", gotU, gotS, Code(skips))
	}
}
