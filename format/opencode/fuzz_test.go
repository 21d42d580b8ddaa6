package opencode_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/opencode"
	"github.com/sesstool/sesstool/internal/cleanup"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
	"github.com/sesstool/sesstool/internal/testkit/walstore"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// FuzzOpenCodeTree fuzzes the three files of a one-message, one-part
// OpenCode 1.x storage tree (session info, message info, part), filed
// under the samples' ids.
func FuzzOpenCodeTree(f *testing.F) {
	f.Fuzz(func(t *testing.T, session, message, part []byte) {
		root := filepath.Join(t.TempDir(), "storage")
		fuzzcheck.WriteFiles(t, root, map[string][]byte{
			"migration": []byte("2"),
			"session/a5ee440f3a5b15dd18869d161cddabbf9605e671/ses_e03a7a64affe0wHc2prdw2R2s7.json": session,
			"message/ses_e03a7a64affe0wHc2prdw2R2s7/msg_1fc5859fb001AVlB5Jzf5pmiGs.json":           message,
			"part/msg_1fc5859fb001AVlB5Jzf5pmiGs/prt_1fc585a860019ydZE88ebLA4gd.json":              part,
		})
		fuzzcheck.CheckOne(t, opencode.Format{}, root, part)
		loadAgrees(t, root)
	})
}

// loadAgrees checks that a store that validates reads the same through Load
// (what convert and export read) as from the disk.
func loadAgrees(t *testing.T, root string) {
	rep := &report.Report{}
	f, err := opencode.Format{}.Load(root, rep, format.ValidateOptions{Workers: 2})
	if err != nil || rep.Errors() > 0 {
		return
	}
	refs, err := opencode.Format{}.Sessions(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range refs {
		var got [2]*session.Session
		for i, f := range []format.Format{opencode.Format{}, f} {
			r, err := f.Open(ref)
			if err == nil {
				got[i], err = session.ReadAll(r)
			}
			if err != nil {
				t.Fatalf("read %s: %v", ref.ID, err)
			}
		}
		if d := cmp.Diff(got[0], got[1]); d != "" {
			t.Fatalf("%s (-disk +loaded):\n%s", ref.ID, d)
		}
	}
}

// FuzzOpenCodeExport fuzzes an `opencode export` JSON document.
func FuzzOpenCodeExport(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "export.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fuzzcheck.CheckOne(t, opencode.Export{}, p, data)
		fuzzcheck.CheckStream(t, opencode.Export{}, data)
	})
}

// FuzzOpenCodeWAL fuzzes a database and the write-ahead log beside it
// (seeded with the sample's rows, the last five messages only in the log),
// read through the private copy sesstool makes of both.
func FuzzOpenCodeWAL(f *testing.F) {
	dir := filepath.Join(f.TempDir(), "seed")
	walstore.Build(f, walSample, dir, 7)
	db, err := os.ReadFile(filepath.Join(dir, "opencode.db"))
	if err != nil {
		f.Fatal(err)
	}
	wal, err := os.ReadFile(filepath.Join(dir, "opencode.db-wal"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(db, wal)
	defer opencode.SetDBBounds(10*time.Second, 1<<20, 64<<20)()
	f.Fuzz(func(t *testing.T, db, wal []byte) {
		defer cleanup.RunAtExit()
		root := filepath.Join(t.TempDir(), "opencode")
		fuzzcheck.WriteFiles(t, root, map[string][]byte{"opencode.db": db, "opencode.db-wal": wal})
		fuzzcheck.CheckOne(t, opencode.Format{}, root, wal)
	})
}

// TestSeedsConvertEverywhere: every seed of FuzzOpenCodeTree and
// FuzzOpenCodeExport that validates converts to a valid session in every
// layout (the fuzz targets make one conversion an input).
func TestSeedsConvertEverywhere(t *testing.T) {
	for _, in := range fuzzcheck.Corpus(t, "FuzzOpenCodeTree") {
		root := filepath.Join(t.TempDir(), "storage")
		fuzzcheck.WriteFiles(t, root, map[string][]byte{
			"migration": []byte("2"),
			"session/a5ee440f3a5b15dd18869d161cddabbf9605e671/ses_e03a7a64affe0wHc2prdw2R2s7.json": in[0],
			"message/ses_e03a7a64affe0wHc2prdw2R2s7/msg_1fc5859fb001AVlB5Jzf5pmiGs.json":           in[1],
			"part/msg_1fc5859fb001AVlB5Jzf5pmiGs/prt_1fc585a860019ydZE88ebLA4gd.json":              in[2],
		})
		fuzzcheck.Check(t, opencode.Format{}, root)
	}
	for _, in := range fuzzcheck.Corpus(t, "FuzzOpenCodeExport") {
		p := filepath.Join(t.TempDir(), "export.json")
		if err := os.WriteFile(p, in[0], 0o644); err != nil {
			t.Fatal(err)
		}
		fuzzcheck.Check(t, opencode.Export{}, p)
	}
}
