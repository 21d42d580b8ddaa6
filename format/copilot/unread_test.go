package copilot

import (
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/straytest"
)

// TestUnread: what a Copilot home, its session-state folder or a session
// folder holds that is neither a session's log or workspace.yaml nor
// Copilot's own is listed (the walk reports it); the rest is not. The
// fixtures' names are those Copilot CLI 1.0.102 wrote here.
func TestUnread(t *testing.T) {
	const id = "88150f3f-9445-4515-8db8-566966329682"
	start := []byte(`{"type":"session.start","data":{"sessionId":"` + id + `","copilotVersion":"1.0.102"},"id":"a","timestamp":"2026-11-28T02:40:09.916Z","parentId":null}` + "\n")
	for _, tc := range []struct {
		name     string
		unit     string   // the unit, relative to the fixture
		expected []string // present, not reported
		stray    []string // present, reported
	}{
		{
			name: "a home",
			expected: []string{"session-state/" + id + "/workspace.yaml", "session-state/" + id + "/checkpoints/index.md",
				"session-state/" + id + "/files/", "session-state/" + id + "/research/", "session-state/" + id + "/rewind-file-snapshots/",
				"session-state/" + id + "/.workspace-fork.lock", "session-state/.session-operation-locks/" + id + ".lock",
				"session-state/old.jsonl", "config.json", "logs/process.log", "session-store.db", "session-store.db-wal", "installed-plugins/"},
			stray: []string{"session-state/" + id + "/notes.txt", "session-state/README"},
		},
		{
			name:     "a session-state folder",
			unit:     "session-state",
			expected: []string{id + "/workspace.yaml", id + "/plan.md", id + "/session.db", "old.jsonl"},
			stray:    []string{id + "/draft/", "notes.md"},
		},
		{
			name:     "a session folder",
			unit:     "session-state/" + id,
			expected: []string{"workspace.yaml", "vscode.metadata.json", "checkpoints/"},
			stray:    []string{"events.jsonl.orig", "scratch/"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			straytest.Write(t, root, "session-state/"+id+"/"+EventsFile, start)
			unit := filepath.Join(root, filepath.FromSlash(tc.unit))
			for _, p := range append(append([]string{}, tc.expected...), tc.stray...) {
				straytest.Write(t, unit, p, start)
			}
			straytest.Check(t, unit, Format{}.Unread(unit), tc.stray)
		})
	}
	t.Run("a log file has nothing inside", func(t *testing.T) {
		root := t.TempDir()
		straytest.Write(t, root, "events.jsonl", start)
		if got := (Format{}).Unread(filepath.Join(root, "events.jsonl")); got != nil {
			t.Errorf("Unread of a file: %v", got)
		}
	})
}
