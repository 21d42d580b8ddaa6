package goat_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/goat"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
)

// With Reopen the writer reads a session twice instead of holding it; the
// files written and the loss report must be the same as without, for every
// sample session of every layout (goat's own included).
func TestTwoPassesWriteWhatOneDoes(t *testing.T) {
	units, _, err := registry.Walk(filepath.Join("..", "..", "testdata", "samples"), nil)
	if err != nil {
		t.Fatal(err)
	}
	sessions := 0
	for _, u := range units {
		refs, err := u.Format.Sessions(u.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range refs {
			open := func() (session.Reader, error) { return u.Format.Open(ref) }
			name := u.Path + " " + ref.ID
			once, onceLoss, err1 := writeGoat(t, open, nil)
			twice, twiceLoss, err2 := writeGoat(t, open, open)
			if err1 != nil || err2 != nil {
				if (err1 == nil) != (err2 == nil) {
					t.Errorf("%s: one pass: %v; two passes: %v", name, err1, err2)
				}
				continue // an invalid sample
			}
			if diff := cmp.Diff(once, twice); diff != "" {
				t.Errorf("%s: two passes wrote different files:\n%s", name, diff)
			}
			if diff := cmp.Diff(onceLoss, twiceLoss); diff != "" {
				t.Errorf("%s: two passes counted different losses:\n%s", name, diff)
			}
			sessions++
		}
	}
	if sessions < 10 {
		t.Fatalf("only %d sample sessions found", sessions)
	}
}

// writeGoat writes one session into a new directory and returns every file
// written, by path relative to it.
func writeGoat(t *testing.T, open, reopen func() (session.Reader, error)) (map[string]string, []format.LossItem, error) {
	t.Helper()
	r, err := open()
	if err != nil {
		return nil, nil, err
	}
	dir := t.TempDir()
	loss := &format.Loss{}
	if _, err := (goat.Format{}).Write(r, dir, format.WriteOptions{Loss: loss, Reopen: reopen}); err != nil {
		return nil, nil, err
	}
	files := map[string]string{}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, loss.Items(), nil
}
