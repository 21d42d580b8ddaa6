package main

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Adding a session to an existing OpenCode store (issue 18, point 4)
// leaves every file that is not the session's own byte for byte as it
// was, with and without --force: the store-wide files (the migration
// marker, project/<id>.json) are never rewritten, even where sesstool
// would spell them differently (a newer store's migration "3").

const storeSample = "testdata/samples/opencode/xdg/opencode/storage"

// hashTree maps every regular file under root (relative, slash-separated)
// to the SHA-256 of its bytes.
func hashTree(t *testing.T, root string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = sha256.Sum256(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// sessionFiles is what belongs to OpenCode session sid in the store at
// root: its session file, message directory, the part directories of its
// messages, its todo and diff.
func sessionFiles(t *testing.T, root, sid string) func(rel string) bool {
	t.Helper()
	msgs := map[string]bool{}
	ents, _ := os.ReadDir(filepath.Join(root, "message", sid))
	for _, e := range ents {
		msgs[strings.TrimSuffix(e.Name(), ".json")] = true
	}
	return func(rel string) bool {
		parts := strings.Split(rel, "/")
		switch {
		case len(parts) == 3 && parts[0] == "session":
			return parts[2] == sid+".json"
		case len(parts) == 3 && parts[0] == "message":
			return parts[1] == sid
		case len(parts) == 3 && parts[0] == "part":
			return msgs[parts[1]]
		case len(parts) == 2 && (parts[0] == "todo" || parts[0] == "session_diff"):
			return parts[1] == sid+".json"
		}
		return false
	}
}

func TestAddingASessionLeavesTheStore(t *testing.T) {
	wd, _ := os.Getwd()
	const project = "a5ee440f3a5b15dd18869d161cddabbf9605e671" // the sample store's project
	for _, c := range []struct {
		name  string
		input string // relative to the repository
		sid   string // the session it writes
		args  []string
	}{
		{"a new session from another layout, into an existing project", "testdata/samples/tree/pi-v3-branches.jsonl", "ses_e07d0741fffed5CfsLicoIRwJX", []string{"--project", project}},
		{"with --force", "testdata/samples/tree/pi-v3-branches.jsonl", "ses_e07d0741fffed5CfsLicoIRwJX", []string{"--project", project, "--force"}},
		{"a session of the store replaced from its export, with --force", "testdata/samples/opencode/export/v1.1.34__ses_e03a7a64affe0wHc2prdw2R2s7.json", "ses_e03a7a64affe0wHc2prdw2R2s7", []string{"--force"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			store := filepath.Join(dir, "store")
			copyTree(t, filepath.Join(wd, storeSample), store)
			// A store a newer OpenCode has migrated further than sesstool writes.
			if err := os.WriteFile(filepath.Join(store, "migration"), []byte("3"), 0o644); err != nil {
				t.Fatal(err)
			}
			own := sessionFiles(t, store, c.sid)
			before := hashTree(t, store)
			args := append([]string{"convert", "--to", "opencode", "-o", "store"}, c.args...)
			r := runBin(t, dir, nil, time.Minute, append(args, filepath.Join(wd, c.input))...)
			if r.code != 0 {
				t.Fatalf("exit %d:\n%s", r.code, r.out)
			}
			after := hashTree(t, store)
			own = either(own, sessionFiles(t, store, c.sid))
			for rel, h := range before {
				if own(rel) {
					continue
				}
				if a, ok := after[rel]; !ok {
					t.Errorf("%s was removed", rel)
				} else if a != h {
					t.Errorf("%s changed", rel)
				}
			}
			wrote := 0
			for rel := range after {
				if _, ok := before[rel]; !ok {
					if !own(rel) {
						t.Errorf("%s was added, and is not the session's", rel)
					}
					wrote++
				}
			}
			if _, ok := after["session/"+project+"/"+c.sid+".json"]; !ok {
				t.Errorf("the session file was not written under project %s", project)
			}
			if r := runBin(t, dir, nil, time.Minute, "validate", "store"); r.code != 0 {
				t.Errorf("the store does not validate after the conversion (exit %d):\n%s", r.code, r.out)
			}
		})
	}
}

func either(a, b func(string) bool) func(string) bool {
	return func(s string) bool { return a(s) || b(s) }
}
