package codex

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/cleanup"
	"github.com/sesstool/sesstool/session"
)

// threadsTable is the part of Codex 0.169's threads table the reader
// looks at (the real one has some forty columns more).
const threadsTable = `CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL DEFAULT '', title TEXT NOT NULL, first_user_message TEXT NOT NULL DEFAULT '', name TEXT)`

// makeDB creates the database at path and runs stmts on it.
func makeDB(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestStateTitle: a thread's name is looked up as Codex 0.169 does: the
// newest state_<N>.sqlite first, where a rename is a title that differs
// from the first user message (or a name column, when set), else the
// last line for the thread in session_index.jsonl. The database is
// opened without creating any file beside it.
func TestStateTitle(t *testing.T) {
	id := "0195f0a0-0000-7000-8000-0000000000cc"
	row := func(title, first, name string) string {
		return `INSERT INTO threads (id, title, first_user_message, name) VALUES ('` + id + `', '` + title + `', '` + first + `', ` + name + `)`
	}
	index := `{"id":"` + id + `","thread_name":"old index name","updated_at":"2026-03-04T10:00:00Z"}` + "\n" +
		`{"id":"` + id + `","thread_name":"Named in the index","updated_at":"2026-03-04T09:00:00Z"}` + "\n" +
		`{"id":"` + id + `","thread_name":"no time: Codex skips it"}` + "\n"
	for _, tc := range []struct {
		name  string
		db    string // the newest database's row; "" for none
		index bool
		want  string
	}{
		{"renamed in the database", row("Renamed in the app", "first message", "NULL"), false, "Renamed in the app"},
		{"the database before the index", row("Renamed in the app", "first message", "NULL"), true, "Renamed in the app"},
		{"a title that is the first message is no name", row("first message", "first message", "NULL"), true, "Named in the index"},
		{"the name column when set", row("first message", "first message", "'Set by a newer Codex'"), true, "Set by a newer Codex"},
		{"no database", "", true, "Named in the index"},
		{"nothing", row("first message", "first message", "NULL"), false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			rollout := writeRollout(t, home, id)
			if tc.db != "" {
				makeDB(t, filepath.Join(home, "state_1.sqlite"), threadsTable, row("old database", "first message", "NULL"))
				makeDB(t, filepath.Join(home, "state_5.sqlite"), threadsTable, tc.db)
			}
			if tc.index {
				if err := os.WriteFile(filepath.Join(home, IndexFile), []byte(index), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := names(t, home)
			r, err := Format{}.Open(format.Ref{Path: rollout})
			if err != nil {
				t.Fatal(err)
			}
			s, err := session.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if s.Meta.Title != tc.want {
				t.Errorf("title %q, want %q", s.Meta.Title, tc.want)
			}
			if after := names(t, home); !slices.Equal(before, after) {
				t.Errorf("reading created files: %v, was %v", after, before)
			}
		})
	}
}

func names(t *testing.T, dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// TestStateTitleInWAL: a name Codex has written only to the state
// database's write-ahead log (a running Codex's newest rows) is read,
// from a private copy: nothing is created beside the database, and the
// copy is gone at the end of the run.
func TestStateTitleInWAL(t *testing.T) {
	home := t.TempDir()
	id := "0195f0a0-0000-7000-8000-0000000000dd"
	rollout := writeRollout(t, home, id)
	work := t.TempDir()
	db, err := sql.Open("sqlite", filepath.Join(work, "state_5.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	c, err := db.Conn(ctx) // held open: closing it would checkpoint the log away
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, q := range []string{`PRAGMA journal_mode=WAL`, `PRAGMA wal_autocheckpoint=0`,
		threadsTable,
		`INSERT INTO threads (id, title, first_user_message) VALUES ('` + id + `', 'Named while Codex ran', 'first message')`} {
		rows, err := c.QueryContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for rows.Next() {
		}
		rows.Close()
	}
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(filepath.Join(work, "state_5.sqlite"+suffix))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, "state_5.sqlite"+suffix), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if fi, _ := os.Stat(filepath.Join(home, "state_5.sqlite-wal")); fi == nil || fi.Size() == 0 {
		t.Fatal("the fixture has no write-ahead log")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	before := names(t, home)
	r, err := Format{}.Open(format.Ref{Path: rollout})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if s.Meta.Title != "Named while Codex ran" {
		t.Errorf("title %q, want the name held in the write-ahead log", s.Meta.Title)
	}
	if after := names(t, home); !slices.Equal(before, after) {
		t.Errorf("reading created files: %v, was %v", after, before)
	}
	if copies := names(t, tmp); len(copies) != 1 || !strings.HasPrefix(copies[0], "sesstool-codex-") {
		t.Errorf("private copies %v, want one sesstool-codex-*", copies)
	}
	cleanup.RunAtExit()
	if copies := names(t, tmp); len(copies) != 0 {
		t.Errorf("left after the run: %v", copies)
	}
}

// writeRollout writes a one-line rollout of id under home's sessions/.
func writeRollout(t *testing.T, home, id string) string {
	t.Helper()
	day := filepath.Join(home, SessionsDir, "2026", "03", "04")
	if err := os.MkdirAll(day, 0o755); err != nil {
		t.Fatal(err)
	}
	rollout := filepath.Join(day, "rollout-2026-03-04T10-00-00-"+id+".jsonl")
	line := `{"timestamp":"2026-03-04T10:00:00.000Z","type":"session_meta","payload":{"id":"` + id + `","timestamp":"2026-03-04T10:00:00.000Z","cwd":"/","cli_version":"0.169.0"}}` + "\n"
	if err := os.WriteFile(rollout, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	return rollout
}
