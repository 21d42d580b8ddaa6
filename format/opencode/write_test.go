package opencode

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

func writeForeign(t *testing.T, out string, opt format.WriteOptions) []string {
	t.Helper()
	paths, err := Format{}.Write(&session.SliceReader{S: foreignSession()}, out, opt)
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// A session from another layout gets OpenCode ids (descending session,
// ascending messages and parts), the same ones on every run, and a store
// that validates clean.
func TestWriteForeign(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	pa := writeForeign(t, a, format.WriteOptions{})
	writeForeign(t, b, format.WriteOptions{})
	if d := cmp.Diff(treeFiles(t, a), treeFiles(t, b)); d != "" {
		t.Fatalf("output not deterministic:\n%s", d)
	}
	var msgs, parts []string
	for _, p := range pa {
		rel, _ := filepath.Rel(a, p)
		switch {
		case strings.HasPrefix(rel, "session/global/ses_"):
			if !ValidID("ses", keyOf(p)) {
				t.Errorf("bad session id %s", p)
			}
		case strings.HasPrefix(rel, "message/"):
			msgs = append(msgs, keyOf(p))
		case strings.HasPrefix(rel, "part/"):
			parts = append(parts, keyOf(p))
		}
	}
	if len(msgs) != 3 || len(parts) != 4 {
		t.Fatalf("wrote %d messages and %d parts, want 3 and 4: %v", len(msgs), len(parts), pa)
	}
	for _, ids := range [][]string{msgs, parts} {
		if !sort.StringsAreSorted(ids) {
			t.Errorf("ids not ascending in write order: %v", ids)
		}
	}
	rep := &report.Report{}
	if err := (Format{}).Validate(a, rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if rep.Errors()+rep.Warnings() != 0 {
		t.Errorf("our store has findings: %+v", rep.Findings())
	}
	// Read back: the tool result is still a result of its call.
	refs, _ := Format{}.Sessions(a)
	s := readAll(t, refs[0])
	if len(s.Entries) != 4 || s.Entries[2].Message.Role != session.RoleTool || s.Entries[2].Message.Text() != "a.txt" {
		t.Errorf("read back %d entries: %+v", len(s.Entries), s.Entries)
	}
}

// Existing files are never replaced without Force; ids that would become
// paths outside the store are refused.
func TestWriteNoClobber(t *testing.T) {
	out := t.TempDir()
	writeForeign(t, out, format.WriteOptions{})
	_, err := Format{}.Write(&session.SliceReader{S: foreignSession()}, out, format.WriteOptions{})
	if !errors.Is(err, atomicfile.ErrExists) {
		t.Fatalf("second write: %v, want ErrExists", err)
	}
	writeForeign(t, out, format.WriteOptions{Force: true})
	for _, bad := range []string{"../x", "a/b", "x\x00y", ".."} {
		_, err := Format{}.Write(&session.SliceReader{S: foreignSession()}, t.TempDir(), format.WriteOptions{Extra: bad})
		if err == nil {
			t.Errorf("project %q accepted", bad)
		}
	}
	s := foreignSession()
	s.Meta.ID = "ses_../../../etc/passwd"
	dir := t.TempDir()
	paths, err := Format{}.Write(&session.SliceReader{S: s}, dir, format.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if !strings.HasPrefix(p, dir+string(os.PathSeparator)) || strings.Contains(p, "..") {
			t.Errorf("wrote outside the store: %s", p)
		}
	}
}

// The database is opened read-only and immutable: reading and validating
// leave its bytes as they were.
func TestDBUntouched(t *testing.T) {
	for _, db := range []string{"testdata/samples/sqlite/opencode-1.2.1-after-json-migration.db", "testdata/samples/sqlite/opencode-1.18.34.db"} {
		before, _ := os.ReadFile(db)
		refs, err := Format{}.Sessions(db)
		if err != nil || len(refs) < 3 {
			t.Fatalf("%s: %d sessions, %v", db, len(refs), err)
		}
		readAll(t, refs[0])
		Format{}.Validate(db, &report.Report{}, format.ValidateOptions{})
		after, _ := os.ReadFile(db)
		if string(before) != string(after) {
			t.Errorf("%s changed", db)
		}
		entries, _ := os.ReadDir(filepath.Dir(db))
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), "-wal") || strings.HasSuffix(e.Name(), "-shm") {
				t.Errorf("%s left behind", e.Name())
			}
		}
	}
}
