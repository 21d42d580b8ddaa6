package walcopy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/cleanup"
	"github.com/sesstool/sesstool/internal/testkit/walstore"
)

const sample = "../../format/opencode/testdata/samples/sqlite/opencode-1.2.1-after-json-migration.db"

// The private copy of a log holds what SQLite would read of it: its
// frames up to the last commit whose salts and checksums hold, not its
// apparent size (a sparse log of 256 MiB used to be copied whole), and a
// log of which SQLite would read nothing is not copied (the database is
// opened in place). Source.Size, which bounds the time a read may take,
// is what was copied. The logs are SQLite's own (walstore), the last
// five messages of the sample only in them.
func TestCopyHoldsOnlyValidFrames(t *testing.T) {
	const sparse = 256 << 20
	for _, tc := range []struct {
		name string
		// change alters the log, of size n; want is how much of it the
		// copy holds (-1: no copy).
		change func(t *testing.T, wal string, n int64)
		want   func(n, page int64) int64
	}{
		{"as written", func(*testing.T, string, int64) {}, func(n, _ int64) int64 { return n }},
		{"a sparse tail", func(t *testing.T, wal string, n int64) {
			if err := os.Truncate(wal, n+sparse); err != nil {
				t.Fatal(err)
			}
		}, func(n, _ int64) int64 { return n }},
		{"zeros only", func(t *testing.T, wal string, n int64) {
			if err := os.Truncate(wal, 0); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(wal, sparse); err != nil {
				t.Fatal(err)
			}
		}, func(int64, int64) int64 { return -1 }},
		{"the last frame's page changed", func(t *testing.T, wal string, n int64) {
			flip(t, wal, n-1)
		}, nil},
		{"the first frame's salt changed", func(t *testing.T, wal string, n int64) {
			flip(t, wal, walHeaderSize+8)
		}, func(int64, int64) int64 { return -1 }},
		{"the header's checksum changed", func(t *testing.T, wal string, n int64) {
			flip(t, wal, 24)
		}, func(int64, int64) int64 { return -1 }},
		{"cut inside the last frame", func(t *testing.T, wal string, n int64) {
			if err := os.Truncate(wal, n-100); err != nil {
				t.Fatal(err)
			}
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			dir := filepath.Join(t.TempDir(), "oc")
			walstore.Build(t, sample, dir, 7)
			db, wal := filepath.Join(dir, "opencode.db"), filepath.Join(dir, "opencode.db-wal")
			dbInfo, err := os.Stat(db)
			if err != nil {
				t.Fatal(err)
			}
			walInfo, err := os.Stat(wal)
			if err != nil {
				t.Fatal(err)
			}
			n, page := walInfo.Size(), int64(pageSize(t, wal))
			tc.change(t, wal, n)
			defer cleanup.RunAtExit()
			src, err := Of(db, "opencode", "opencode.db")
			if err != nil {
				t.Fatal(err)
			}
			var want int64
			if tc.want != nil {
				want = tc.want(n, page)
			} else {
				// Up to the last commit before the last frame: the frames
				// of the last transaction go with it.
				want = lastCommitBefore(t, db, n, page)
			}
			if want < 0 {
				if !src.Immutable || src.File != db || src.Size != dbInfo.Size() {
					t.Errorf("source %+v, want the database opened in place", src)
				}
				if left, _ := filepath.Glob(filepath.Join(tmp, "sesstool-*")); len(left) != 0 {
					t.Errorf("copies made: %v", left)
				}
				return
			}
			fi, err := os.Stat(src.File + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			if src.Immutable || fi.Size() != want || src.Size != dbInfo.Size()+want {
				t.Errorf("copied %d bytes of the log (source %+v), want %d of %d; size %d", fi.Size(), src, want, n, dbInfo.Size()+want)
			}
		})
	}
}

// lastCommitBefore is the length of the log at db's side up to its last
// commit frame that ends before its last frame, read from the unchanged
// log of a fresh build.
func lastCommitBefore(t *testing.T, db string, n, page int64) int64 {
	dir := filepath.Join(t.TempDir(), "oc")
	walstore.Build(t, sample, dir, 7)
	b, err := os.ReadFile(filepath.Join(dir, "opencode.db-wal"))
	if err != nil {
		t.Fatal(err)
	}
	frame := frameHeader + page
	valid := int64(0)
	for at := int64(walHeaderSize); at+frame < n; at += frame {
		if b[at+4] != 0 || b[at+5] != 0 || b[at+6] != 0 || b[at+7] != 0 {
			valid = at + frame
		}
	}
	if valid == 0 {
		t.Fatal("the log has one transaction: nothing to keep before its last frame")
	}
	return valid
}

func pageSize(t *testing.T, wal string) uint32 {
	b := make([]byte, walHeaderSize)
	f, err := os.Open(wal)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.ReadAt(b, 0); err != nil {
		t.Fatal(err)
	}
	return uint32(b[8])<<24 | uint32(b[9])<<16 | uint32(b[10])<<8 | uint32(b[11])
}

func flip(t *testing.T, path string, at int64) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := []byte{0}
	if _, err := f.ReadAt(b, at); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0x5a
	if _, err := f.WriteAt(b, at); err != nil {
		t.Fatal(err)
	}
}
