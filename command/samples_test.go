package command

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/session"
)

// eachSample calls f with every unit of every sample (the project's
// testdata/samples, and $SESSTOOL_SHARED's samples and real-world sessions
// where there), its sessions and what its layout read of them; under
// -short, the real-world sessions (the biggest, 19 MB) are left out. A path
// that cannot be walked or read is logged as not compared.
func eachSample(t *testing.T, f func(u pipeline.Unit, refs []format.Ref, sessions []*session.Session)) {
	t.Helper()
	for _, root := range sampleRoots(t) {
		units, skips := pipeline.Walk(root, nil)
		for _, sk := range skips {
			t.Logf("%s: %s (not compared)", sk.Path, sk.Message)
		}
		for _, u := range units {
			refs, err := u.Format.Sessions(u.Path)
			if err != nil {
				t.Logf("%s: %v (not compared)", u.Path, err)
				continue
			}
			sessions, err := readRefs(u.Format, refs)
			if err != nil {
				t.Logf("%s: %v (not compared)", u.Path, err)
				continue
			}
			f(u, refs, sessions)
		}
	}
}

// sampleRoots are the folders holding samples: the project's, and the
// shared ones beside the worktree ($SESSTOOL_SHARED, else ../../shared).
func sampleRoots(t *testing.T) []string {
	var roots []string
	shared := os.Getenv("SESSTOOL_SHARED")
	if shared == "" {
		shared = filepath.Join("..", "..", "shared")
	}
	dirs := []string{filepath.Join("..", "testdata", "samples"), filepath.Join(shared, "samples")}
	if !short.On() {
		dirs = append(dirs, filepath.Join(shared, "real-world"))
	}
	for _, p := range dirs {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			abs, err := filepath.Abs(p)
			if err != nil {
				t.Fatal(err)
			}
			roots = append(roots, abs)
		}
	}
	return roots
}

func readRefs(f format.Format, refs []format.Ref) ([]*session.Session, error) {
	var out []*session.Session
	for _, ref := range refs {
		r, err := f.Open(ref)
		if err != nil {
			return nil, err
		}
		s, err := session.ReadAll(r)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
