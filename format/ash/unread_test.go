package ash

import (
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/straytest"
)

// TestUnread: what a session directory holds beside the layout's files is
// listed (the walk reports it); the files the layout reads, and those its
// program keeps there, are not.
func TestUnread(t *testing.T) {
	for _, tc := range []struct {
		name     string
		expected []string // present, not reported (a trailing / is a folder)
		stray    []string // present, reported
	}{
		{
			name:     "a session's files",
			expected: []string{ContextFile, HistoryFile, StateFile, "subagents/a1.jsonl"},
		},
		{
			name:     "beside them",
			expected: []string{ContextFile, HistoryFile, StateFile, "subagents/a1.jsonl"},
			stray:    []string{"notes.txt", "subagents/notes.txt", "other/"},
		},
		{
			name:     "hidden entries and backups are passed over as the walk does",
			expected: []string{ContextFile, HistoryFile, StateFile, ".tmp-x/", "context.jsonl.bak"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, p := range append(append([]string{}, tc.expected...), tc.stray...) {
				straytest.Write(t, dir, p, sessionLine)
			}
			if !isSession(dir) {
				t.Fatal("the fixture is not a session directory")
			}
			straytest.Check(t, dir, Format{}.Unread(dir), tc.stray)
		})
	}
}

// sessionLine is what the layout's detection looks for in each file.
var sessionLine = []byte(`{"type":"session","version":"2","id":"s","provider":"cli","created_at":"2026-01-01T00:00:00+00:00"}` + "\n")
