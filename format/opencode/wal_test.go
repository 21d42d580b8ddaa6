package opencode_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/opencode"
	"github.com/sesstool/sesstool/internal/cleanup"
	"github.com/sesstool/sesstool/internal/testkit/walstore"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

const walSample = "testdata/samples/sqlite/opencode-1.2.1-after-json-migration.db"

// TestWALStore reads data directories copied while OpenCode ran: their
// newest rows only in opencode.db-wal. Every row must be read, as from the
// database they came from, and nothing next to the input may be created or
// changed (no -shm, no checkpoint), even in a read-only directory; the
// private copy sesstool reads goes away with the run.
func TestWALStore(t *testing.T) {
	want := readStore(t, walSample)
	if len(want) != 3 {
		t.Fatalf("the sample has %d sessions, want 3", len(want))
	}
	wantRep := validated(t, walSample)
	for _, tc := range []struct {
		name     string
		inMain   int
		readOnly bool
	}{
		{"everything in the log", -1, false},
		{"last 5 messages in the log", 7, false},
		{"read-only directory", 7, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			dir := filepath.Join(t.TempDir(), "opencode")
			walstore.Build(t, walSample, dir, tc.inMain)
			if fi, err := os.Stat(filepath.Join(dir, "opencode.db")); err != nil || (tc.inMain < 0 && fi.Size() > 4096) {
				t.Fatalf("the fixture's main file should hold only its header page: %v %v", fi.Size(), err)
			}
			if tc.readOnly {
				if err := os.Chmod(dir, 0o555); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.Chmod(dir, 0o755) })
			}
			before := files(t, dir)
			defer cleanup.RunAtExit()

			for _, path := range []string{dir, filepath.Join(dir, "opencode.db")} {
				if got := validated(t, path); got.Entries != wantRep.Entries || got.Errors != 0 {
					t.Errorf("validate %s: %d entries, %d errors; from the database itself %d entries",
						path, got.Entries, got.Errors, wantRep.Entries)
				}
				got := readStore(t, path)
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("%s reads otherwise than its source database (-source +wal):\n%s", path, d)
				}
			}
			if d := cmp.Diff(before, files(t, dir)); d != "" {
				t.Errorf("reading changed the input directory (-before +after):\n%s", d)
			}
			if n := copies(t, tmp); n != 1 {
				t.Errorf("%d private copies during the run, want 1 (made once, shared by every open)", n)
			}
			cleanup.RunAtExit()
			if n := copies(t, tmp); n != 0 {
				t.Errorf("%d private copies left after the run", n)
			}
		})
	}
}

// readStore reads every session of path: its id and its entries' ids,
// roles and texts in order.
func readStore(t *testing.T, path string) map[string][]string {
	t.Helper()
	refs, err := opencode.Format{}.Sessions(path)
	if err != nil {
		t.Fatalf("sessions of %s: %v", path, err)
	}
	out := map[string][]string{}
	for _, ref := range refs {
		r, err := opencode.Format{}.Open(ref)
		if err != nil {
			t.Fatalf("open %s: %v", ref.ID, err)
		}
		s, err := session.ReadAll(r)
		if err != nil {
			t.Fatalf("read %s: %v", ref.ID, err)
		}
		var es []string
		for _, e := range s.Entries {
			line := e.ID + " " + string(e.Kind)
			if e.Message != nil {
				line += " " + string(e.Message.Role)
				for _, b := range e.Message.Content {
					line += " " + b.Text
				}
			}
			es = append(es, line)
		}
		out[ref.ID] = es
	}
	return out
}

func validated(t *testing.T, path string) report.Summary {
	t.Helper()
	rep := &report.Report{}
	if err := (opencode.Format{}).Validate(path, rep, format.ValidateOptions{Workers: 1}); err != nil {
		t.Fatalf("validate %s: %v", path, err)
	}
	for _, f := range rep.Findings() {
		if f.Severity == report.Error {
			t.Logf("%s", f.Text())
		}
	}
	return rep.Summary()
}

// files lists dir's entries with mode, size, mtime and content hash.
func files(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		out = append(out, fmt.Sprintf("%s %v %d %d %x", e.Name(), fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), sha256.Sum256(b)))
	}
	sort.Strings(out)
	return out
}

func copies(t *testing.T, tmp string) int {
	t.Helper()
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "sesstool-opencode-") {
			n++
		}
	}
	return n
}
