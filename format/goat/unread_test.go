package goat

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
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
				writeUnit(t, dir, p)
			}
			if !isSession(dir) {
				t.Fatal("the fixture is not a session directory")
			}
			var got, want []string
			for _, s := range (Format{}).Unread(dir) {
				if s.Err != nil {
					t.Fatalf("%s: %v", s.Path, s.Err)
				}
				rel, _ := filepath.Rel(dir, s.Path)
				got = append(got, filepath.ToSlash(rel))
			}
			for _, p := range tc.stray {
				want = append(want, strings.TrimSuffix(p, "/"))
			}
			sort.Strings(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("reported %q, want %q", got, want)
			}
		})
	}
}

// writeUnit makes rel under dir: a folder (trailing /), or a file holding
// what the layout's detection looks for.
func writeUnit(t *testing.T, dir, rel string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if strings.HasSuffix(rel, "/") {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, unitFile(rel), 0o644); err != nil {
		t.Fatal(err)
	}
}

func unitFile(rel string) []byte {
	if rel == MessagesFile {
		return []byte(`{"uuid":"u1","message":{"role":"user","content":"hi"}}` + "\n")
	}
	return []byte(`{"id":"d94e39bb-a20b-4bcf-89d5-3e14595ee2e9"}`)
}
