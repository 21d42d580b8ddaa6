package opencode

import (
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/straytest"
)

// TestUnread: what an OpenCode JSON tree holds that the layout does not
// read is listed (the walk reports it); the store's files, the folders
// OpenCode keeps beside them and the rest of its data folder are not.
func TestUnread(t *testing.T) {
	const ses, msg = "ses_e03a7a64affe0wHc2prdw2R2s7", "msg_1fc58c82b001zeIZ2mOwr91GNF"
	tree := []string{
		"storage/migration", "storage/project/p1.json", "storage/session/p1/" + ses + ".json",
		"storage/message/" + ses + "/" + msg + ".json", "storage/part/" + msg + "/prt_1.json",
		"storage/todo/" + ses + ".json", "storage/session_diff/" + ses + ".json",
	}
	legacy := []string{
		"project/home-p/app.json", "project/home-p/storage/migration",
		"project/home-p/storage/session/info/" + ses + ".json",
		"project/home-p/storage/session/message/" + ses + "/" + msg + ".json",
		"project/home-p/storage/session/part/" + ses + "/" + msg + "/prt_1.json",
	}
	for _, tc := range []struct {
		name     string
		unit     string   // asked about, relative to the root
		expected []string // present, not reported (a trailing / is a folder)
		stray    []string // present, reported
	}{
		{
			name: "a storage tree",
			unit: "storage",
			// a message's part folder is taken whole (store.go): what is
			// in it is named by the validation's walk instead
			// (pipeline_skip_stray.txtar)
			expected: append([]string{"storage/session_share/" + ses + ".json", "storage/permission/p1.json", "storage/share/x.json", "storage/snapshot/",
				"storage/part/" + msg + "/x.txt"}, tree...),
			stray: []string{
				"storage/session/junk.txt", "storage/message/notes.json", "storage/part/junk.txt",
				"storage/session/p1/nested/", "storage/junk", "storage/other/",
			},
		},
		{
			name:     "a data folder: the rest of it is OpenCode's",
			unit:     ".",
			expected: append([]string{"log/2026.log", "auth.json", "bin/", "snapshot/"}, tree...),
			stray:    []string{"storage/session/junk.txt"},
		},
		{
			name:     "beside a database, the storage tree OpenCode no longer reads is expected",
			unit:     ".",
			expected: append([]string{"opencode.db", "opencode.db-wal", "storage/session/junk.txt"}, tree...),
		},
		{
			name:     "a 0.x data folder",
			unit:     ".",
			expected: append([]string{"log/x.log", "project/home-p/storage/session/share/" + ses + ".json"}, legacy...),
			stray: []string{
				"project/home-p/storage/session/info/notes.txt", "project/home-p/storage/session/junk/",
				"project/home-p/storage/session/part/" + ses + "/x.json",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, p := range append(append([]string{}, tc.expected...), tc.stray...) {
				straytest.Write(t, root, p, []byte("{}\n"))
			}
			straytest.Check(t, root, Format{}.Unread(filepath.Join(root, tc.unit)), tc.stray)
		})
	}
}
