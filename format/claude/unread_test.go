package claude

import (
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/straytest"
)

// TestUnread: what a store's project folders hold that no session reads is
// listed (the walk reports it): unknown files and folders, a session
// folder whose session file is gone, an older sub-agent file of no session.
// The sessions, their sub-agent runs and side files, and what Claude Code
// keeps beside them are not.
func TestUnread(t *testing.T) {
	const s1 = "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68"
	const s2 = "11111111-1111-1111-1111-111111111111"
	line := func(sid string) string {
		return `{"type":"user","sessionId":"` + sid + `","uuid":"u1","message":{"role":"user","content":"hi"}}` + "\n"
	}
	for _, tc := range []struct {
		name     string
		unit     string            // asked about, relative to the root
		files    map[string]string // content of files (others hold a line of s1), and files inside a stray folder
		expected []string          // present, not reported (a trailing / is a folder)
		stray    []string          // present, reported
	}{
		{
			name: "a store",
			unit: ".",
			expected: []string{
				"projects/-p/" + s1 + ".jsonl",
				"projects/-p/" + s1 + "/subagents/agent-a1.jsonl",
				"projects/-p/" + s1 + "/subagents/agent-a1.meta.json",
				"projects/-p/" + s1 + "/tool-results/toolu_1.txt",
				"projects/-p/sessions-index.json",
				"projects/-p/memory/MEMORY.md",
				"history.jsonl", "settings.json", "todos/x.json", "shell-snapshots/",
			},
			files: map[string]string{"projects/-p/" + s2 + "/subagents/agent-b.jsonl": line(s2)},
			stray: []string{
				"projects/-p/notes.txt",
				"projects/-p/junk/",                  // no junk.jsonl beside it
				"projects/-p/" + s2 + "/",            // its session file is gone
				"projects/-p/" + s1 + "/other/",      // not a sub-agent run or a tool output
				"projects/-p/" + s1 + "/subagents/x", // not a run
				"projects/stray-file",
			},
		},
		{
			name: "older sub-agent files beside the sessions",
			unit: "proj",
			files: map[string]string{
				"proj/renamed.jsonl":    line("X"), // its id is in its lines, not its name
				"proj/agent-x.jsonl":    line("X"),
				"proj/agent-orph.jsonl": line("nobody"),
				"proj/agent-none.jsonl": `{"type":"user"}` + "\n",
			},
			expected: []string{"proj/" + s1 + ".jsonl", "proj/agent-1.jsonl", "proj/renamed.jsonl", "proj/agent-x.jsonl"},
			stray:    []string{"proj/agent-orph.jsonl", "proj/agent-none.jsonl"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, p := range append(append([]string{}, tc.expected...), tc.stray...) {
				straytest.Write(t, root, p, []byte(line(s1)))
			}
			for p, c := range tc.files {
				straytest.Write(t, root, p, []byte(c))
			}
			straytest.Check(t, root, Format{}.Unread(filepath.Join(root, tc.unit)), tc.stray)
		})
	}
}
