package migrate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
)

// TestAppendDuringCommit appends a line to the file being migrated in
// place while the commit is under way: once the new file is fsynced (the
// long step on a large file) and once after the last check before the
// rename. The line must never end up only in the backup, or nowhere: the
// migration is refused and the file is left as the agent wrote it.
func TestAppendDuringCommit(t *testing.T) {
	line := []byte(`{"type":"custom","customType":"agent","data":{"appended":true}}` + "\n")
	for _, point := range []string{"synced", "checked"} {
		for _, noBackup := range []bool{false, true} {
			name := point
			if noBackup {
				name += "/no-backup"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				p := filepath.Join(dir, "s.jsonl")
				orig := read(t, "testdata/v1-compaction.jsonl")
				writeFile(t, p, orig)
				appended := 0
				atomicfile.Hook = func(at, path string) {
					if at != point || path != p {
						return
					}
					f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
					if err != nil {
						t.Errorf("agent: %v", err)
						return
					}
					defer f.Close()
					if _, err := f.Write(line); err != nil {
						t.Errorf("agent: %v", err)
					}
					appended++
				}
				defer func() { atomicfile.Hook = nil }()
				_, err := testTree.Migrate(p, "3", format.MigrateOptions{NoBackup: noBackup})
				if appended != 1 {
					t.Fatalf("the hook appended %d times, want 1", appended)
				}
				if !errors.Is(err, atomicfile.ErrChanged) {
					t.Errorf("migrate: err = %v, want ErrChanged", err)
				}
				if got, want := read(t, p), append(orig, line...); !bytes.Equal(got, want) {
					t.Errorf("the file is not the original with the appended line:\n%s", got)
				}
				names, _ := os.ReadDir(dir)
				if len(names) != 1 {
					var all []string
					for _, n := range names {
						all = append(all, n.Name())
					}
					t.Errorf("left beside the file: %v, want only s.jsonl", all)
				}
			})
		}
	}
}
