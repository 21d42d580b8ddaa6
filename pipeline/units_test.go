package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sesstool/sesstool/format"
)

func put(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, b := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A session spread over a shared tree (format.Units with several
// patterns) is committed in the order the patterns give, its commit point
// last; an existing commit point being replaced is out of sight before
// anything else moves; a shared file already there is left as it is; an
// existing directory piece is replaced whole.
func TestCommitUnitsOrder(t *testing.T) {
	work := t.TempDir()
	root := filepath.Join(work, "root")
	put(t, root, map[string]string{
		"shared":       "theirs",
		"msg/s1/old":   "old message",
		"sess/p/s1":    "old session",
		"sess/p/other": "another session",
		"msg/other/m":  "another session's message",
	})
	st, err := NewStage(work)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Remove()
	put(t, st.Dir, map[string]string{
		"shared":    "ours",
		"part/m1/a": "part",
		"msg/s1/m1": "new message",
		"sess/p/s1": "new session",
	})
	u := format.Units{Each: []string{"part/*", "msg/*", "sess/*/*"}, Shared: []string{"shared"}}
	var order []string
	hidden := true
	moved = func(rel string) {
		order = append(order, filepath.ToSlash(rel))
		if rel != filepath.Join("sess", "p", "s1") {
			if _, err := os.Lstat(filepath.Join(root, "sess", "p", "s1")); err == nil {
				hidden = false
			}
		}
	}
	defer func() { moved = nil }()
	if err := st.Commit(root, true, u); err != nil {
		t.Fatal(err)
	}
	if want := []string{"part/m1", "msg/s1", "sess/p/s1"}; !slices.Equal(order, want) {
		t.Errorf("committed %v, want %v", order, want)
	}
	if !hidden {
		t.Error("the old session file was still in place while the new pieces moved")
	}
	for rel, want := range map[string]string{
		"shared": "theirs", "msg/s1/m1": "new message", "sess/p/s1": "new session",
		"sess/p/other": "another session", "msg/other/m": "another session's message", "part/m1/a": "part",
	} {
		if b, err := os.ReadFile(filepath.Join(root, rel)); err != nil || string(b) != want {
			t.Errorf("%s = %q (%v), want %q", rel, b, err, want)
		}
	}
	if _, err := os.Lstat(filepath.Join(root, "msg", "s1", "old")); err == nil {
		t.Error("msg/s1 was merged into, not replaced whole")
	}
}

// Into a root that does not exist yet, the commit is one rename: while it
// runs, and so after a kill at any moment, the root is absent or holds
// every piece, never the parts and messages of a session without its
// session file (a store that does not validate).
func TestCommitNewRootWhole(t *testing.T) {
	work := t.TempDir()
	root := filepath.Join(work, "new", "root")
	st, err := NewStage(work)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Remove()
	files := map[string]string{
		"shared":    "ours",
		"part/m1/a": "part",
		"msg/s1/m1": "message",
		"sess/p/s1": "session",
		"loose":     "a file of no pattern",
	}
	put(t, st.Dir, files)
	u := format.Units{Each: []string{"part/*", "msg/*", "sess/*/*"}, Shared: []string{"shared"}}
	calls := 0
	moved = func(rel string) {
		calls++
		for f := range files {
			if _, err := os.Lstat(filepath.Join(root, f)); err != nil {
				t.Errorf("after %s moved, %s is not in the root yet: a kill now leaves part of the output", rel, f)
			}
		}
	}
	defer func() { moved = nil }()
	if err := st.Commit(root+string(filepath.Separator), false, u); err != nil { // -o DIR/
		t.Fatal(err)
	}
	if calls == 0 {
		t.Fatal("no piece was committed")
	}
	for rel, want := range files {
		if b, err := os.ReadFile(filepath.Join(root, rel)); err != nil || string(b) != want {
			t.Errorf("%s = %q (%v), want %q", rel, b, err, want)
		}
	}
	// The root gets a new directory's mode, not the stage's private one.
	os.Mkdir(filepath.Join(work, "plain"), 0o755)
	plain, _ := os.Stat(filepath.Join(work, "plain"))
	if fi, err := os.Stat(root); err != nil || fi.Mode() != plain.Mode() {
		t.Errorf("the new root: %v (%v), want mode %v", fi, err, plain.Mode())
	}
}
