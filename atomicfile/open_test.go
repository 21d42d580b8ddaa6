package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenFileLinks: OpenFile writes through a link to a file and refuses
// a link to nothing, creating nothing where it points.
func TestOpenFileLinks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		target   string // the link's target, relative to the link; "" for no link
		existing bool   // the target exists
		wantErr  bool
	}{
		{name: "plain file", target: ""},
		{name: "link to a file", target: "../outside/x", existing: true},
		{name: "link to nothing", target: "../outside/x", wantErr: true},
		{name: "link to a link to nothing", target: "../outside/y", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			os.Mkdir(filepath.Join(root, "out"), 0o755)
			os.Mkdir(filepath.Join(root, "outside"), 0o755)
			p := filepath.Join(root, "out", "f.lock")
			if tc.target != "" {
				if err := os.Symlink(tc.target, p); err != nil {
					t.Fatal(err)
				}
			}
			if tc.target == "../outside/y" {
				os.Symlink("x", filepath.Join(root, "outside", "y"))
			}
			if tc.existing {
				os.WriteFile(filepath.Join(root, "outside", "x"), nil, 0o644)
			}
			f, err := OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
			if tc.wantErr {
				if err == nil {
					f.Close()
					t.Fatal("opened a link to nothing")
				}
				if _, serr := os.Lstat(filepath.Join(root, "outside", "x")); serr == nil {
					t.Fatal("the link's target was created")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			f.Close()
			if _, err := os.Lstat(p); err != nil {
				t.Fatal(err)
			}
		})
	}
}
