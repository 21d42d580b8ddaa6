package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// hostileHome is a Codex home holding one rollout of id and a state
// database made by stmts (or, with raw, those bytes as the database).
func hostileHome(t *testing.T, id string, raw []byte, stmts ...string) (home, rollout, db string) {
	t.Helper()
	home = t.TempDir()
	rollout = writeRollout(t, home, id)
	db = filepath.Join(home, "state_5.sqlite")
	if raw != nil {
		if err := os.WriteFile(db, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		makeDB(t, db, stmts...)
	}
	return home, rollout, db
}

// readOrRefuse reads the rollout as info and convert do; it returns the
// error, or fails the test when reading does not end in 30 seconds.
func readOrRefuse(t *testing.T, rollout string) (*session.Session, error) {
	t.Helper()
	type result struct {
		s   *session.Session
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := Format{}.Open(format.Ref{Path: rollout})
		if err != nil {
			done <- result{nil, err}
			return
		}
		s, err := session.ReadAll(r)
		done <- result{s, err}
	}()
	res := hangwatch.Recv(t, done, "reading the rollout did not end")
	return res.s, res.err
}

// TestHostileStateDB: a state database built to compute without end or
// without bound, or one that is not a database at all, is refused quickly
// with an error naming it (exit 1), and validate reports it once as a
// state-db error at the database: never a hang, a crash or gigabytes of
// memory. A database of another shape (no threads table, other columns)
// only gives no name.
func TestHostileStateDB(t *testing.T) {
	id := "0195f0a0-0000-7000-8000-0000000000ee"
	insert := `INSERT INTO threads (id, title, first_user_message) VALUES ('` + id + `', 'A name', 'first')`
	for _, tc := range []struct {
		name  string
		raw   []byte
		stmts []string
		want  string // "" when the database is only not read
	}{
		{"recursive view for threads", nil, []string{
			`CREATE VIEW threads AS WITH RECURSIVE r(id, title, first_user_message, name, n) AS
			 (SELECT 'x', 'y', 'z', NULL, 0 UNION ALL SELECT id, title, first_user_message, name, n + 1 FROM r)
			 SELECT id, title, first_user_message, name FROM r`,
		}, "threads is a view, not a table"},
		{"computed title of 20 MB", nil, []string{
			`CREATE TABLE threads (id TEXT PRIMARY KEY, raw TEXT, first_user_message TEXT, title TEXT GENERATED ALWAYS AS (raw || printf('%.*c', 20000000, ' ')) VIRTUAL)`,
			`INSERT INTO threads (id, raw, first_user_message) VALUES ('` + id + `', 'x', 'y')`,
		}, "column threads.title is computed"},
		{"computed column beside the ones read", nil, []string{
			threadsTable, insert,
			`ALTER TABLE threads ADD COLUMN big TEXT GENERATED ALWAYS AS (printf('%.*c', 20000000, ' ')) VIRTUAL`,
		}, "column threads.big is computed"},
		{"virtual table", nil, []string{
			`CREATE VIRTUAL TABLE threads USING fts5(id, title, first_user_message, name)`,
		}, "threads is a virtual table"},
		{"not a database", append([]byte("SQLite format 3\x00"), make([]byte, 4096)...), nil, "unreadable"},
		{"garbage", []byte(strings.Repeat("\xff not sqlite ", 500)), nil, "unreadable"},
		{"another program's database", nil, []string{`CREATE TABLE items (id TEXT)`}, ""},
		{"another Codex's threads table", nil, []string{`CREATE TABLE threads (id TEXT PRIMARY KEY, label TEXT)`}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, rollout, db := hostileHome(t, id, tc.raw, tc.stmts...)
			s, err := readOrRefuse(t, rollout)
			if tc.want == "" {
				if err != nil || s.Meta.Title != "" {
					t.Errorf("got title %q, error %v; want no name and no error", s.Meta.Title, err)
				}
			} else {
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), db) {
					t.Fatalf("got %v, want an error naming %s and saying %q", err, db, tc.want)
				}
				if c := exitcode.Of(err); c != exitcode.Invalid {
					t.Errorf("exit code %d, want %d", c, exitcode.Invalid)
				}
			}
			// validate names the rule, at the database, once for the
			// home however many rollouts it holds
			writeRollout(t, home, id[:len(id)-2]+"ff")
			rep := &report.Report{}
			if err := (Format{}).Validate(home, rep, format.ValidateOptions{Workers: 1}); err != nil {
				t.Fatal(err)
			}
			f := rep.Findings()
			if tc.want == "" {
				if len(f) != 0 {
					t.Errorf("validate found %v, want nothing", f)
				}
				return
			}
			if len(f) != 1 || f[0].Rule != "state-db" || f[0].Path != db || f[0].Severity != report.Error || !strings.Contains(f[0].Message, tc.want) {
				t.Errorf("validate found %v, want one state-db error at %s saying %q", f, db, tc.want)
			}
		})
	}
}

// TestStateDBBounds: each bound on reading the state database ends the
// read with an error that names the database and the bound.
func TestStateDBBounds(t *testing.T) {
	id := "0195f0a0-0000-7000-8000-0000000000ef"
	for _, tc := range []struct {
		name   string
		time   time.Duration
		length int64
		want   string
		code   int
	}{
		{"time", time.Nanosecond, 1 << 30, "gave up after 1ns", exitcode.IO},
		{"one value", time.Minute, 500, "string or blob too big", exitcode.Invalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, rollout, db := hostileHome(t, id, nil, threadsTable,
				`INSERT INTO threads (id, title, first_user_message) VALUES ('`+id+`', printf('%.*c', 2000, 'n'), 'first')`)
			old := stateBounds
			stateBounds = func(int64) (time.Duration, int64) { return tc.time, tc.length }
			defer func() { stateBounds = old }()
			_, err := readOrRefuse(t, rollout)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), db) {
				t.Fatalf("got %v, want an error naming %s and saying %q", err, db, tc.want)
			}
			if c := exitcode.Of(err); c != tc.code {
				t.Errorf("exit code %d, want %d", c, tc.code)
			}
		})
	}
}
