package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/shared"
)

// TestKillDuringDirConvert kills `convert --force` into an existing session
// directory (goat, ash) at a random moment, 20 times each, and checks that
// the session directory is then exactly the old one or exactly the new
// one: a session directory is committed as a unit (issue 18, point 3).
func TestKillDuringDirConvert(t *testing.T) {
	if testing.Short() {
		t.Skip("kill loop; skipped with -short")
	}
	for _, c := range []struct {
		to    string
		input func(t *testing.T, dir string) string
	}{
		{"goat", bigTree},
		{"ash", func(t *testing.T, dir string) string {
			// ash refuses tool ids used twice, so its input is not repeated.
			b := readOrFail(t, shared.Sample(t, "pi/pi-mono_before-compaction.v1.jsonl"))
			p := filepath.Join(dir, "big.jsonl")
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}},
	} {
		t.Run(c.to, func(t *testing.T) {
			dir := t.TempDir()
			c.input(t, dir)
			args := []string{"convert", "--to", c.to, "--force", "-o", "out", "big.jsonl"}
			d := timed(t, dir, args...)
			ents, err := os.ReadDir(filepath.Join(dir, "out"))
			if err != nil || len(ents) != 1 {
				t.Fatalf("out holds %d entries, want one session directory (%v)", len(ents), err)
			}
			sess := filepath.Join(dir, "out", ents[0].Name())
			want := hashTree(t, sess)
			// The previous output: other names and other bytes, so that
			// any mix of the two shows.
			old := map[string][]byte{"notes.txt": []byte("old\n")}
			for rel := range want {
				old[rel] = []byte("previous " + rel + "\n")
			}
			prepare := func() {
				os.RemoveAll(sess)
				for rel, b := range old {
					os.MkdirAll(filepath.Dir(filepath.Join(sess, rel)), 0o755)
					os.WriteFile(filepath.Join(sess, rel), b, 0o644)
				}
			}
			prepare()
			oldHash := hashTree(t, sess)
			var kept, full int
			killLoop(t, dir, 20, 2*d, prepare, args, func(i int, finished bool) {
				got := hashTree(t, sess)
				switch {
				case sameHashes(got, oldHash):
					kept++
				case sameHashes(got, want):
					full++
				default:
					t.Fatalf("kill %d: %s is neither the previous session directory nor the new one: %d files", i, sess, len(got))
				}
				removeTemps(t, dir)
				removeTemps(t, filepath.Join(dir, "out"))
			})
			t.Logf("20 kills: %d left the previous session directory, %d the new one", kept, full)
		})
	}
}

func sameHashes(a, b map[string][32]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal(v[:], w[:]) {
			return false
		}
	}
	return true
}
