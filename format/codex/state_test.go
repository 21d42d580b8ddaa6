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

// TestStateTitle: with no name in session_index.jsonl, the thread's name
// comes from the newest state_<N>.sqlite, opened without creating any
// file beside it.
func TestStateTitle(t *testing.T) {
	home := t.TempDir()
	day := filepath.Join(home, SessionsDir, "2026", "03", "04")
	if err := os.MkdirAll(day, 0o755); err != nil {
		t.Fatal(err)
	}
	id := "0195f0a0-0000-7000-8000-0000000000cc"
	rollout := filepath.Join(day, "rollout-2026-03-04T10-00-00-"+id+".jsonl")
	line := `{"timestamp":"2026-03-04T10:00:00.000Z","type":"session_meta","payload":{"id":"` + id + `","timestamp":"2026-03-04T10:00:00.000Z","cwd":"/","cli_version":"0.169.0"}}` + "\n"
	if err := os.WriteFile(rollout, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	for n, name := range map[int]string{1: "old name", 5: "Renamed in the app"} {
		db, err := sql.Open("sqlite", filepath.Join(home, "state_"+string(rune('0'+n))+".sqlite"))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{`CREATE TABLE threads (id TEXT PRIMARY KEY, title TEXT, name TEXT)`, `INSERT INTO threads VALUES ('` + id + `', 'first message', '` + name + `')`} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
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
	if s.Meta.Title != "Renamed in the app" {
		t.Errorf("title %q, want the newest database's name", s.Meta.Title)
	}
	if after := names(t, home); !slices.Equal(before, after) {
		t.Errorf("reading created files: %v, was %v", after, before)
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
		`CREATE TABLE threads (id TEXT PRIMARY KEY, title TEXT, name TEXT)`,
		`INSERT INTO threads VALUES ('` + id + `', 'first message', 'Named while Codex ran')`} {
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
