package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// Over a root whose every session is being replaced (the only one, here),
// hiding the old session file first would leave, while the pieces move,
// a store listing no session over parts and messages, which does not
// validate: the commit is one exchange of the whole root instead, so that
// at each piece's move (where a kill may fall) the root holds the old
// session whole or the new one whole.
func TestCommitReplaceEverySessionWhole(t *testing.T) {
	old := map[string]string{
		"shared":    "theirs",
		"loose":     "kept beside",
		"part/m0/a": "old part",
		"msg/s1/m0": "old message",
		"sess/p/s1": "old session",
		"share/x/y": "a folder OpenCode keeps",
	}
	files := map[string]string{
		"shared":    "ours",
		"part/m1/a": "new part",
		"msg/s1/m1": "new message",
		"sess/p/s1": "new session",
	}
	u := format.Units{Each: []string{"part/*", "msg/*", "sess/*/*"}, Shared: []string{"shared"}}
	for _, c := range []struct {
		name    string
		extra   map[string]string
		whole   bool // the root is swapped whole
		stageIn bool // the stage is inside the root (convert -o over an existing store)
		link    bool // the root is a symbolic link to the store, and stays one
	}{
		{"only session", nil, true, false, false},
		{"only session, stage inside the root", nil, true, true, false},
		{"only session and a killed run's temporary file", map[string]string{"sess/p/.s2.tmp-1": "partial"}, true, true, false},
		{"another session beside", map[string]string{"sess/p/s2": "another", "msg/s2/m": "its message"}, false, true, false},
		{"root a link to the store", nil, false, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			work := t.TempDir()
			root := filepath.Join(work, "root")
			if c.link {
				if err := os.Mkdir(filepath.Join(work, "real"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("real", root); err != nil {
					t.Fatal(err)
				}
			}
			put(t, root, old)
			put(t, root, c.extra)
			near := work
			if c.stageIn {
				near = root
			}
			st, err := NewStage(near)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Remove()
			put(t, st.Dir, files)
			state := func() string {
				b, err := os.ReadFile(filepath.Join(root, "sess", "p", "s1"))
				if err != nil {
					return "absent"
				}
				_, errOld := os.Lstat(filepath.Join(root, "msg", "s1", "m0"))
				_, errNew := os.Lstat(filepath.Join(root, "msg", "s1", "m1"))
				_, partOld := os.Lstat(filepath.Join(root, "part", "m0", "a"))
				_, partNew := os.Lstat(filepath.Join(root, "part", "m1", "a"))
				switch {
				case string(b) == "old session" && errOld == nil && errNew != nil && partOld == nil && partNew != nil:
					return "old"
				case string(b) == "new session" && errNew == nil && errOld != nil && partNew == nil:
					return "new"
				}
				return "mixed"
			}
			var seen []string
			moved = func(rel string) { seen = append(seen, state()) }
			defer func() { moved = nil }()
			if err := st.Commit(root, true, u); err != nil {
				t.Fatal(err)
			}
			if len(seen) == 0 {
				t.Fatal("no piece was committed")
			}
			for i, s := range seen {
				if c.whole && s != "new" {
					t.Errorf("at the move of piece %d the session was %s, want whole", i, s)
				}
				if !c.whole && s == "mixed" {
					t.Errorf("at the move of piece %d the session was mixed", i)
				}
			}
			if s := state(); s != "new" {
				t.Errorf("after the commit the session is %s", s)
			}
			want := map[string]string{"shared": "theirs", "loose": "kept beside", "share/x/y": "a folder OpenCode keeps",
				"part/m1/a": "new part", "msg/s1/m1": "new message", "sess/p/s1": "new session"}
			for rel, v := range c.extra {
				want[rel] = v
			}
			for rel, w := range want {
				if b, err := os.ReadFile(filepath.Join(root, rel)); err != nil || string(b) != w {
					t.Errorf("%s = %q (%v), want %q", rel, b, err, w)
				}
			}
			st.Remove()
			if fi, err := os.Lstat(root); c.link && (err != nil || fi.Mode()&os.ModeSymlink == 0) {
				t.Errorf("the link to the store was replaced: %v (%v)", fi, err)
			}
			if entries, _ := os.ReadDir(work); len(entries) != 1+btoi(c.link) {
				t.Errorf("%d entries beside the root once the stage is removed, want the root alone (and the store it links to)", len(entries))
			}
			var hidden []string
			filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				rel, _ := filepath.Rel(root, p)
				if _, theirs := c.extra[filepath.ToSlash(rel)]; err == nil && strings.HasPrefix(d.Name(), ".") && !theirs {
					hidden = append(hidden, p)
				}
				return nil
			})
			if len(hidden) > 0 {
				t.Errorf("left in the root: %v", hidden)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
