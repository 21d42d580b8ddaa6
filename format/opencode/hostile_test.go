package opencode_test

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/opencode"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// hostileDB copies the 128 KiB sample database and runs stmts on the copy.
func hostileDB(t *testing.T, stmts ...string) string {
	t.Helper()
	b, err := os.ReadFile(walSample)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "opencode.db")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return p
}

// readAllOf validates path and reads every session in it, as info, export
// and convert do; it returns the first error.
func readAllOf(path string) error {
	rep := &report.Report{}
	if err := (opencode.Format{}).Validate(path, rep, format.ValidateOptions{Workers: 1}); err != nil {
		return err
	}
	refs, err := opencode.Format{}.Sessions(path)
	if err != nil {
		return err
	}
	for _, ref := range refs {
		r, err := opencode.Format{}.Open(ref)
		if err == nil {
			_, err = session.ReadAll(r)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// TestHostileDatabase: a small database built to compute without end or
// without bound is refused, quickly, with an error that says why; never a
// hang, never gigabytes of memory.
func TestHostileDatabase(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stmts []string
		want  string
	}{
		{"computed column read by every query", []string{
			`ALTER TABLE message RENAME COLUMN data TO raw`,
			`ALTER TABLE message ADD COLUMN data TEXT GENERATED ALWAYS AS (raw || printf('%.*c', 20000000, ' ')) VIRTUAL`,
		}, "column message.data is computed"},
		{"computed column beside the ones read", []string{
			`ALTER TABLE session ADD COLUMN big TEXT GENERATED ALWAYS AS (zeroblob(1000000000)) VIRTUAL`,
		}, "column session.big is computed"},
		{"recursive view for the project table", []string{
			`DROP TABLE project`,
			`CREATE VIEW project AS WITH RECURSIVE r(id, worktree, vcs, name, time_created, time_updated, sandboxes) AS
			 (SELECT 'x', '/', NULL, NULL, 0, 0, '[]' UNION ALL SELECT id, worktree, vcs, name, time_created + 1, time_updated, sandboxes FROM r)
			 SELECT * FROM r`,
		}, "project is a view, not a table"},
		{"recursive view for the todo table", []string{
			`DROP TABLE todo`,
			`CREATE VIEW todo AS WITH RECURSIVE r(session_id, content, status, priority, position) AS
			 (SELECT session_id, 'x', 'pending', 'low', 0 FROM session UNION ALL SELECT session_id, content, status, priority, position + 1 FROM r)
			 SELECT * FROM r`,
		}, "todo is a view, not a table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := hostileDB(t, tc.stmts...)
			done := make(chan error, 1)
			go func() { done <- readAllOf(p) }()
			if err := hangwatch.Recv(t, done, "reading the database did not end"); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
			// validate names the rule, at the file
			rep := &report.Report{}
			if err := (opencode.Format{}).Validate(p, rep, format.ValidateOptions{Workers: 1}); err != nil {
				t.Fatal(err)
			}
			f := rep.Findings()
			if len(f) != 1 || f[0].Rule != "db-schema" || f[0].Path != p || !strings.Contains(f[0].Message, tc.want) {
				t.Errorf("validate found %v, want one db-schema error saying %q", f, tc.want)
			}
		})
	}
}

// TestCorruptIndex: a database whose index and table disagree (one letter
// of a part id changed in one place only, as a flipped bit would) is
// reported by validate, or else converts: validate reads the parts in id
// order through the id's index, the reader a session's parts through
// another, so each would see a different id for the same row.
func TestCorruptIndex(t *testing.T) {
	b, err := os.ReadFile(walSample)
	if err != nil {
		t.Fatal(err)
	}
	id := []byte("prt_1fc585bcf001h2TIDny4LJ7TdM")
	corrupt := 0
	for at, n := 0, 0; ; at += n + 1 {
		if n = bytes.Index(b[at:], id); n < 0 {
			break
		}
		flipped := bytes.Clone(b)
		flipped[at+n+1] = 'R'
		p := filepath.Join(t.TempDir(), "opencode.db")
		if err := os.WriteFile(p, flipped, 0o644); err != nil {
			t.Fatal(err)
		}
		fuzzcheck.Check(t, opencode.Format{}, p)
		rep := &report.Report{}
		if err := (opencode.Format{}).Validate(p, rep, format.ValidateOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Findings() {
			if f.Rule == "db-corrupt" && f.Path == p && strings.Contains(f.Message, "missing from index") {
				corrupt++
				break
			}
		}
	}
	if corrupt < 2 {
		t.Errorf("%d copies with a changed id reported db-corrupt; want the table's and the index's (2)", corrupt)
	}
}

// A row whose data has a key twice is reported at the database and the
// row: OpenCode reads the last value, sesstool the first.
func TestDatabaseDuplicateKey(t *testing.T) {
	p := hostileDB(t, `UPDATE part SET data = '{"type":"text","type":"reasoning","text":"x"}' WHERE id = 'prt_1fc585bcf001h2TIDny4LJ7TdM'`)
	rep := &report.Report{}
	if err := (opencode.Format{}).Validate(p, rep, format.ValidateOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	f := rep.Findings()
	if len(f) != 1 || f[0].Rule != "duplicate-key" || f[0].Path != p || f[0].Pointer != "/part/prt_1fc585bcf001h2TIDny4LJ7TdM" || !strings.Contains(f[0].Message, `key "type" appears twice`) {
		t.Errorf("validate found %v, want one duplicate-key error at the part's row", f)
	}
}

// TestDatabaseBounds: each bound on reading a database ends the read with
// an error that says which.
func TestDatabaseBounds(t *testing.T) {
	for _, tc := range []struct {
		name         string
		time         time.Duration
		value, total int64
		want         string
	}{
		{"time", time.Nanosecond, 1 << 30, 1 << 30, "gave up after 1ns"},
		{"one value", time.Minute, 500, 1 << 30, "string or blob too big"},
		{"all values", time.Minute, 1 << 30, 2000, "more bytes than its files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer opencode.SetDBBounds(tc.time, tc.value, tc.total)()
			err := readAllOf(walSample)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}
