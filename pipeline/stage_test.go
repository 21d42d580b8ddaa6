package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
)

// Even with force, a commit writes only regular files from the stage, each
// at its own path under root: a symlink a writer left in the stage (to a
// file or a directory outside) is never followed or moved, so nothing lands
// outside root.
func TestCommitStaysInsideRoot(t *testing.T) {
	work := t.TempDir()
	outside := filepath.Join(work, "outside")
	root := filepath.Join(work, "root")
	for _, d := range []string{outside, root} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	st, err := NewStage(work)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Remove()
	os.MkdirAll(filepath.Join(st.Dir, "session"), 0o755)
	os.WriteFile(filepath.Join(st.Dir, "session", "ok.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(outside, "victim"), []byte("keep"), 0o644)
	os.Symlink(outside, filepath.Join(st.Dir, "escape"))                               // a directory link
	os.Symlink(filepath.Join(outside, "victim"), filepath.Join(st.Dir, "victim.json")) // a file link
	if err := st.Commit(root, true, format.Units{}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "session", "ok.json")); err != nil || string(b) != "{}" {
		t.Fatalf("the regular file was not committed: %v", err)
	}
	for _, p := range []string{filepath.Join(root, "escape"), filepath.Join(root, "victim.json")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was committed", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "victim")); string(b) != "keep" {
		t.Error("a file outside root changed")
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) != 1 {
		t.Errorf("outside holds %d entries, want 1", len(ents))
	}
}

// An existing output is refused without force, before anything moves.
func TestCommitRefusesExistingWithoutForce(t *testing.T) {
	work := t.TempDir()
	root := filepath.Join(work, "root")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "b.json"), []byte("old"), 0o644)
	st, err := NewStage(work)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Remove()
	os.WriteFile(filepath.Join(st.Dir, "a.json"), []byte("new"), 0o644)
	os.WriteFile(filepath.Join(st.Dir, "b.json"), []byte("new"), 0o644)
	if err := st.Commit(root, false, format.Units{}); err == nil || exitcode.Of(err) != exitcode.IO {
		t.Fatalf("commit over an existing file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "a.json")); err == nil {
		t.Error("a.json moved although the commit was refused")
	}
	if b, _ := os.ReadFile(filepath.Join(root, "b.json")); string(b) != "old" {
		t.Error("b.json replaced without force")
	}
}
