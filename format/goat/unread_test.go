package goat

import (
	"path/filepath"
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
			expected: []string{MetadataFile, MessagesFile, TranscriptFile, "messages.jsonl.lock", "transcript.jsonl.lock", "checkpoints/session-end/manifest.json", "checkpoints/session-end/files/df1d036c"},
		},
		{
			name:     "beside them",
			expected: []string{MetadataFile, MessagesFile},
			stray:    []string{"notes.txt", "checkpoints/session-end/notes.txt", "checkpoints/session-end/blobs/", "other/"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, p := range append(append([]string{}, tc.expected...), tc.stray...) {
				straytest.Write(t, dir, p, unitFile(p))
			}
			if !isSession(dir) {
				t.Fatal("the fixture is not a session directory")
			}
			straytest.Check(t, dir, Format{}.Unread(dir), tc.stray)
		})
	}
}

// unitFile is what the layout's detection looks for in the file rel.
func unitFile(rel string) []byte {
	if rel == MessagesFile {
		return []byte(`{"uuid":"u1","message":{"role":"user","content":"hi"}}` + "\n")
	}
	return []byte(`{"id":"d94e39bb-a20b-4bcf-89d5-3e14595ee2e9"}`)
}

// TestKeeps: beside its session directories goat keeps memory folders
// (its Cleanup never deletes them), which the walk passes over; a folder so
// named that is a session directory is still a session.
func TestKeeps(t *testing.T) {
	for _, tc := range []struct {
		rel   string
		files []string // written inside it (none: a file, not a folder)
		keeps bool
	}{
		{"memory", []string{"MEMORY.md"}, true},
		{"agent-memory", []string{"reviewer/MEMORY.md"}, true},
		{"team-memory", []string{"MEMORY.md"}, true},
		{"memory.md", nil, false},
		{"notes", []string{"MEMORY.md"}, false},
		{"memoryless", []string{"x"}, false},
		{"old-memory", []string{MetadataFile, MessagesFile}, false},
	} {
		t.Run(tc.rel, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, tc.rel)
			for _, f := range tc.files {
				straytest.Write(t, root, filepath.Join(tc.rel, f), unitFile(f))
			}
			if tc.files == nil {
				straytest.Write(t, root, tc.rel, []byte("x"))
			}
			if got := (Format{}).Keeps(p, tc.files != nil); got != tc.keeps {
				t.Errorf("Keeps(%s) = %v, want %v", tc.rel, got, tc.keeps)
			}
		})
	}
}
