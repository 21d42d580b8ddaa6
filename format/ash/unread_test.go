package ash

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
	if err := os.WriteFile(p, []byte(`{"type":"session","version":"2","id":"s","provider":"cli","created_at":"2026-01-01T00:00:00+00:00"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
