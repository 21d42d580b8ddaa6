package codex

import (
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sesstool/sesstool/format"
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
