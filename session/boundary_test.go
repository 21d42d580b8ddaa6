package session_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
)

// TestNoNotesInExtras reads every session under the samples and the layouts'
// test data and checks that no Extras key is a reader's note ("@state",
// "#titleSlot", ...): Extras hold members of the source only, and a layout's
// notes on its own spelling go in Source.Private.
func TestNoNotesInExtras(t *testing.T) {
	roots := []string{filepath.Join("..", "testdata", "samples")}
	if shared := os.Getenv("SESSTOOL_SHARED"); shared != "" {
		roots = append(roots, filepath.Join(shared, "samples"))
	}
	layouts, _ := filepath.Glob(filepath.Join("..", "format", "*", "testdata"))
	roots = append(roots, layouts...)
	read := 0
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			continue // a root this checkout does not have
		}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if strings.Contains(p, string(filepath.Separator)+"invalid") || d.Name() == "fuzz" {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			f := registry.Detect(p)
			if f == nil {
				return nil
			}
			read += checkSessions(t, f, p)
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d sessions read", read)
	if read < 20 {
		t.Fatalf("only %d sessions read: the walk is broken", read)
	}
}

// checkSessions checks every session at p that opens and reads; a fixture
// that does not (a store's broken member, an invalid case) is another
// test's business.
func checkSessions(t *testing.T, f format.Format, p string) int {
	refs, err := f.Sessions(p)
	if err != nil {
		return 0
	}
	n := 0
	for _, ref := range refs {
		r, err := f.Open(ref)
		if err != nil {
			continue
		}
		s, err := session.ReadAll(r)
		if err != nil {
			continue
		}
		n++
		where := p + " " + ref.ID
		check := func(at string, x session.Extras) {
			for _, fl := range x {
				if strings.HasPrefix(fl.Key, "@") || strings.HasPrefix(fl.Key, "#") {
					t.Errorf("%s: %s: Extras key %q is a reader's note, not a member of the source", where, at, fl.Key)
				}
			}
		}
		check("header", s.Meta.Extra)
		for _, e := range s.Entries {
			check("entry "+e.ID, e.Extra)
			if m := e.Message; m != nil {
				check("message "+e.ID, m.Extra)
				if m.Usage != nil {
					check("usage "+e.ID, m.Usage.Extra)
				}
				for _, b := range m.Content {
					check("block of "+e.ID, b.Extra)
				}
			}
		}
	}
	return n
}
