package codex

import (
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/straytest"
)

// TestUnread: what a Codex home holds that the layout does not read is
// listed (the walk reports it); the rollouts, the index, the state
// database and Codex's own files are not.
func TestUnread(t *testing.T) {
	const day = "sessions/2026/02/23/"
	const rollout = "rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl"
	for _, tc := range []struct {
		name     string
		expected []string // present, not reported (a trailing / is a folder)
		stray    []string // present, reported
	}{
		{
			name:     "a day folder and a year folder",
			expected: []string{day + rollout},
			stray:    []string{day + "notes.txt", "sessions/2026/stray.jsonl"},
		},
		{
			name: "Codex's own files at the top of its home",
			expected: []string{day + rollout, IndexFile, StateDB, "state.db-wal", "config.toml", "auth.json",
				"history.jsonl", "log/codex-tui.log", "version.json", "shell_snapshots/"},
		},
		{
			name:     "archived sessions and the older flat sessions/ folder",
			expected: []string{"archived_sessions/" + rollout, "sessions/rollout-2025-05-01T10-00-00-x.jsonl", "sessions/rollout-x.json"},
			stray:    []string{"archived_sessions/notes.md", "sessions/README"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			for _, p := range append(append([]string{}, tc.expected...), tc.stray...) {
				straytest.Write(t, home, p, []byte("{}\n"))
			}
			if !isHome(home) {
				t.Fatal("the fixture is not a Codex home")
			}
			straytest.Check(t, home, Format{}.Unread(home), tc.stray)
		})
	}
	t.Run("a rollout file has nothing inside", func(t *testing.T) {
		home := t.TempDir()
		straytest.Write(t, home, day+rollout, []byte("{}\n"))
		if got := (Format{}).Unread(filepath.Join(home, day+rollout)); got != nil {
			t.Errorf("Unread of a file: %v", got)
		}
	})
}
