package registry_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
)

// convert lets a writer read a session a second time (Reopen), which the
// linear layouts (flat, goat) use instead of holding the session. For every
// sample session and every writer, the files written and the loss report
// must be the same with Reopen as without.
func TestReopenWritesWhatOnePassDoes(t *testing.T) {
	units, _ := pipeline.Walk(filepath.Join("..", "testdata", "samples"), nil)
	sessions := 0
	for _, u := range units {
		refs, err := u.Format.Sessions(u.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range refs {
			open := func() (session.Reader, error) { return u.Format.Open(ref) }
			for _, target := range registry.All {
				if _, ok := target.(format.Writer); !ok {
					continue
				}
				name := u.Path + " " + ref.ID + " -> " + target.Name()
				once, onceLoss, err1 := write(t, target, open, nil)
				twice, twiceLoss, err2 := write(t, target, open, open)
				if err1 != nil || err2 != nil {
					if (err1 == nil) != (err2 == nil) {
						t.Errorf("%s: one pass: %v; two passes: %v", name, err1, err2)
					}
					continue // an invalid sample, or one this target refuses
				}
				if diff := cmp.Diff(once, twice); diff != "" {
					t.Errorf("%s: two passes wrote different files:\n%s", name, diff)
				}
				if diff := cmp.Diff(onceLoss, twiceLoss); diff != "" {
					t.Errorf("%s: two passes counted different losses:\n%s", name, diff)
				}
			}
			sessions++
		}
	}
	if sessions < 10 {
		t.Fatalf("only %d sample sessions found", sessions)
	}
}

// write converts one session into a new directory and returns every file
// written, by path relative to it.
func write(t *testing.T, target format.Format, open, reopen func() (session.Reader, error)) (map[string]string, []loss.Item, error) {
	t.Helper()
	r, err := open()
	if err != nil {
		return nil, nil, err
	}
	dir := t.TempDir()
	out := dir
	if _, file := target.(format.Stream); file {
		out = filepath.Join(dir, "out")
	}
	loss := &loss.Counter{}
	_, err = convert.Write(target, r, out, format.WriteOptions{Reopen: reopen}, loss)
	r.Close()
	if err != nil {
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
