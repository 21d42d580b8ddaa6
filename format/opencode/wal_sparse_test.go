package opencode_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/internal/cleanup"
	"github.com/sesstool/sesstool/internal/testkit/walstore"
)

// A log's apparent size is not what it holds: `truncate -s 1500M
// opencode.db-wal` made every read-only command write 1.5 GB of zeros into
// the temporary directory. The private copy holds only what SQLite would
// read of the log (its valid frames up to the last commit), and nothing
// of a log that holds no frame: the database is then opened in place.
// Either way the rows read are those of the database the files came from.
func TestWALCopyHoldsOnlyValidFrames(t *testing.T) {
	want := readStore(t, walSample)
	const sparse = 256 << 20 // holes: no blocks on disk
	for _, tc := range []struct {
		name string
		// make builds dir's opencode.db and opencode.db-wal; the result is
		// -1 when no copy may be made.
		make func(t *testing.T, dir string) int64
	}{
		{"rows in the log, then a sparse tail", func(t *testing.T, dir string) int64 {
			walstore.Build(t, walSample, dir, 7)
			wal := filepath.Join(dir, "opencode.db-wal")
			fi, err := os.Stat(wal)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(wal, fi.Size()+sparse); err != nil {
				t.Fatal(err)
			}
			return fi.Size()
		}},
		{"a log of zeros only", func(t *testing.T, dir string) int64 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(walSample)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "opencode.db"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Create(filepath.Join(dir, "opencode.db-wal"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(sparse); err != nil {
				t.Fatal(err)
			}
			return -1
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			dir := filepath.Join(t.TempDir(), "opencode")
			most := tc.make(t, dir)
			defer cleanup.RunAtExit()
			if got := readStore(t, dir); !cmp.Equal(want, got) {
				t.Errorf("reads otherwise than its source database (-source +read):\n%s", cmp.Diff(want, got))
			}
			if got := validated(t, dir); got.Errors != 0 {
				t.Errorf("validate: %d errors", got.Errors)
			}
			// The copy's log is gone once read (SQLite checkpoints it when
			// the last connection closes): walcopy's tests look at it.
			if n := copies(t, tmp); (most < 0) != (n == 0) {
				t.Errorf("%d private copies, want %d", n, map[bool]int{true: 0, false: 1}[most < 0])
			}
		})
	}
}
