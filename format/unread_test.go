package format_test

import (
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/straytest"
)

// TestContentsStrays checks the patterns a layout declares its units'
// contents with: what matches Read or Known is not listed, a folder a
// pattern reaches into is looked inside, any other folder is one stray.
func TestContentsStrays(t *testing.T) {
	for _, tc := range []struct {
		name     string
		c        format.Contents
		expected []string // present, and not listed (a trailing / is a folder)
		stray    []string // present, and listed
	}{
		{
			name:     "names and patterns",
			c:        format.Contents{Read: []string{"a.jsonl", "sub/*.json"}, Known: []string{"a.jsonl.lock"}},
			expected: []string{"a.jsonl", "a.jsonl.lock", "sub/x.json", "sub/y.json"},
			stray:    []string{"notes.txt", "sub/x.txt"},
		},
		{
			name:     "a folder no pattern reaches is one stray, not looked inside",
			c:        format.Contents{Read: []string{"a.jsonl"}},
			expected: []string{"a.jsonl"},
			stray:    []string{"junk/"},
		},
		{
			name:     "** is any number of folders",
			c:        format.Contents{Read: []string{"s/**/r-*.jsonl"}},
			expected: []string{"s/r-1.jsonl", "s/2026/02/23/r-2.jsonl"},
			stray:    []string{"s/2026/stray.jsonl", "s/2026/02/23/notes.txt"},
		},
		{
			name:     "a pattern ending in / is a folder, taken whole",
			c:        format.Contents{Read: []string{"a.jsonl"}, Known: []string{"memory/"}},
			expected: []string{"a.jsonl", "memory/MEMORY.md", "memory/deep/x"},
			stray:    []string{"other/"},
		},
		{
			name:     "a folder pattern wins over one reaching into it",
			c:        format.Contents{Read: []string{"*/sub/*.jsonl"}, Known: []string{"memory/"}},
			expected: []string{"s/sub/a.jsonl", "memory/MEMORY.md"},
			stray:    []string{"s/notes.txt"},
		},
		{
			name:     "a file does not match a folder's pattern",
			c:        format.Contents{Read: []string{"a.jsonl"}, Known: []string{"memory/"}},
			expected: []string{"a.jsonl"},
			stray:    []string{"memory"},
		},
		{
			name:     "a deeper pattern wins over a whole-entry one",
			c:        format.Contents{Read: []string{"sessions/*/r.jsonl"}, Known: []string{"*"}},
			expected: []string{"config.toml", "log/x.log", "sessions/d/r.jsonl"},
			stray:    []string{"sessions/d/notes.txt"},
		},
		{
			name:     "hidden entries and backups are never listed",
			c:        format.Contents{Read: []string{"a.jsonl"}},
			expected: []string{"a.jsonl", ".hidden", ".tmp-x/y", "old.bak"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, p := range append(append([]string{}, tc.expected...), tc.stray...) {
				straytest.Write(t, root, p, []byte("x\n"))
			}
			straytest.Check(t, root, tc.c.Strays(root), tc.stray)
		})
	}
}

// TestContentsUnlistable: a folder that cannot be listed is reported with
// its error, not passed over.
func TestContentsUnlistable(t *testing.T) {
	root := t.TempDir()
	straytest.Write(t, root, "a.jsonl", []byte("x\n"))
	missing := filepath.Join(root, "gone")
	got := format.Contents{Read: []string{"*"}}.Strays(missing)
	if len(got) != 1 || got[0].Path != missing || got[0].Err == nil {
		t.Errorf("strays of a missing folder: %+v, want one with an error", got)
	}
}
