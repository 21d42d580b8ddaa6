package main

import (
	"bytes"
	"crypto/sha256"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sesstool/sesstool/internal/testkit/shared"
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

// TestKillDuringOpenCodeConvert kills `convert --to opencode` into a new
// store and with --force over an earlier version of the same session, 6
// times each at a random moment of the run and 12 times each at a random
// moment of the commit (after the first piece lands in the store), and
// checks after each kill that the session is absent (its session file, by
// which OpenCode lists it, not there) or complete: its session file, its
// message directory and the part directory of each of its messages are
// exactly the old version or exactly the new one, file for file and byte
// for byte, and the store validates (issue 18, point 3).
func TestKillDuringOpenCodeConvert(t *testing.T) {
	if testing.Short() {
		t.Skip("kill loop; skipped with -short")
	}
	dir := t.TempDir()
	// The real sample as it is: a session of a few MB, so that the
	// commit, where a kill matters, is a larger part of a run.
	b := readOrFail(t, shared.Sample(t, "pi/pi-mono_before-compaction.v1.jsonl"))
	if err := os.WriteFile(filepath.Join(dir, "big.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	// The earlier version: the same session (header, so the same id and
	// first time) with a third of its lines.
	lines := bytes.SplitAfter(b, []byte("\n"))
	if err := os.WriteFile(filepath.Join(dir, "old.jsonl"), bytes.Join(lines[:len(lines)/3], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"convert", "--to", "opencode", "--project", "global", "-o", "out", "big.jsonl"}
	mustRun(t, dir, "convert", "--to", "opencode", "--project", "global", "-o", "prev", "old.jsonl")
	d := timed(t, dir, args...)
	want := ocSession(t, filepath.Join(dir, "out"))
	old := ocSession(t, filepath.Join(dir, "prev"))
	if want == nil || old == nil || sameHashes(want, old) {
		t.Fatal("the two uninterrupted conversions do not give two different sessions")
	}
	check := func(t *testing.T, counts map[string]int, newStore bool) func(int, bool) {
		return func(i int, finished bool) {
			removeTemps(t, dir)
			got := ocSession(t, filepath.Join(dir, "out"))
			switch {
			case got == nil && newStore:
				// A new store appears whole or not at all: parts and
				// messages with no session would not validate.
				if _, err := os.Lstat(filepath.Join(dir, "out")); err == nil {
					t.Fatalf("kill %d: out holds a store without the session", i)
				}
				counts["absent"]++
				return
			case got == nil:
				// The store's only session was the one replaced: with it
				// out of sight, its parts and messages alone would be a
				// store that does not validate.
				if r := runBin(t, dir, nil, 2*time.Minute, "validate", "out"); r.code != 0 {
					t.Fatalf("kill %d: out holds parts and messages without their session: exit %d\n%s", i, r.code, r.out)
				}
				counts["absent"]++
				return
			case sameHashes(got, want):
				counts["new"]++
			case sameHashes(got, old):
				counts["old"]++
			default:
				t.Fatalf("kill %d: the session in out is neither the old one nor the new one: %d files", i, len(got))
			}
			if r := runBin(t, dir, nil, 2*time.Minute, "validate", "out"); r.code != 0 {
				t.Fatalf("kill %d: the store does not validate: exit %d\n%s", i, r.code, r.out)
			}
		}
	}
	parts := filepath.Join(dir, "out", "part")
	listed, _ := filepath.Glob(filepath.Join(dir, "out", "session", "*", "*.json"))
	if len(listed) != 1 {
		t.Fatalf("%d session files in out, want 1", len(listed))
	}
	for _, c := range []struct {
		name    string
		args    []string
		prepare func()
	}{
		{"new store", args, func() { os.RemoveAll(filepath.Join(dir, "out")) }},
		{"force over the old version", append([]string{"convert", "--force"}, args[1:]...), func() {
			os.RemoveAll(filepath.Join(dir, "out"))
			copyTree(t, filepath.Join(dir, "prev"), filepath.Join(dir, "out"))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			counts := map[string]int{}
			killLoop(t, dir, 6, d+d/2, c.prepare, c.args, check(t, counts, c.name == "new store"))
			t.Logf("6 kills at random: %v", counts)
			// Most of a run is reading, writing the stage and validating
			// it; these kills fall inside the commit, from the first piece
			// landing in out/part to the session file, which comes last.
			commit := commitTime(t, dir, parts, listed[0], c.prepare, c.args)
			counts = map[string]int{}
			killInCommit(t, dir, 12, parts, commit, c.prepare, c.args, check(t, counts, c.name == "new store"))
			t.Logf("12 kills in the commit (%v long): %v", commit, counts)
		})
	}
}

// changed reports whether the directory at p is not as it was (absent, or
// with the modification time before): something was moved into it.
func changed(p string, before os.FileInfo) bool {
	fi, err := os.Stat(p)
	if err != nil {
		return false
	}
	return before == nil || !fi.ModTime().Equal(before.ModTime())
}

// replaced reports whether the file at p is there and is not the one
// before (nil: there was none).
func replaced(p string, before os.FileInfo) bool {
	fi, err := os.Stat(p)
	return err == nil && (before == nil || !os.SameFile(fi, before) || !fi.ModTime().Equal(before.ModTime()))
}

// commitTime runs args uninterrupted and returns the time from the first
// change of the directory watch to the change of the file last: the commit.
func commitTime(t *testing.T, dir, watch, last string, prepare func(), args []string) time.Duration {
	t.Helper()
	prepare()
	before, _ := os.Stat(watch)
	lastBefore, _ := os.Stat(last)
	cmd := exec.Command(sesstoolBin(t), args...)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var start, end time.Time
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%v: %v", args, err)
			}
			if start.IsZero() || end.IsZero() {
				t.Fatalf("%v: %s or %s never changed", args, watch, last)
			}
			return max(end.Sub(start), time.Millisecond)
		default:
		}
		if start.IsZero() && changed(watch, before) {
			start = time.Now()
		}
		if !start.IsZero() && end.IsZero() && replaced(last, lastBefore) {
			end = time.Now()
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// killInCommit is killLoop with each kill at a random moment within about
// commit after watch changed.
func killInCommit(t *testing.T, dir string, n int, watch string, commit time.Duration, prepare func(), args []string, check func(int, bool)) {
	t.Helper()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	for i := 0; i < n; i++ {
		prepare()
		before, _ := os.Stat(watch)
		cmd := exec.Command(sesstoolBin(t), args...)
		cmd.Dir = dir
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
	poll:
		for {
			select {
			case err = <-done:
				break poll
			default:
			}
			if changed(watch, before) {
				time.Sleep(time.Duration(rng.Int63n(int64(commit + commit/4))))
				_ = cmd.Process.Signal(syscall.SIGKILL)
				err = <-done
				break poll
			}
			time.Sleep(200 * time.Microsecond)
		}
		check(i, err == nil)
	}
}

// ocSession hashes the files of the one session listed in the OpenCode
// store root (session/*/*.json): its session file, its message directory and
// the part directory of each of its messages; nil when no session is listed.
// Hidden names (what a killed run leaves out of sight) are not read.
func ocSession(t *testing.T, root string) map[string][32]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(root, "storage", "session", "*", "*.json"))
	if len(files) == 0 {
		files, _ = filepath.Glob(filepath.Join(root, "session", "*", "*.json"))
	}
	if len(files) == 0 {
		return nil
	}
	if len(files) > 1 {
		t.Fatalf("%d sessions listed in %s, want one", len(files), root)
	}
	base := filepath.Dir(filepath.Dir(filepath.Dir(files[0])))
	sid := strings.TrimSuffix(filepath.Base(files[0]), ".json")
	out := map[string][32]byte{}
	add := func(sub string) {
		if _, err := os.Stat(filepath.Join(base, sub)); err != nil {
			return // a message without parts
		}
		for rel, h := range hashTree(t, filepath.Join(base, sub)) {
			if !strings.HasPrefix(filepath.Base(rel), ".") {
				out[sub+"/"+rel] = h
			}
		}
	}
	rel, _ := filepath.Rel(base, files[0])
	out[rel] = sha256.Sum256(readOrFail(t, files[0]))
	add("message/" + sid)
	ents, err := os.ReadDir(filepath.Join(base, "message", sid))
	if err != nil {
		t.Fatalf("session %s is listed, but its messages are not there: %v", sid, err)
	}
	for _, e := range ents {
		if mid, ok := strings.CutSuffix(e.Name(), ".json"); ok && !strings.HasPrefix(mid, ".") {
			add("part/" + mid)
		}
	}
	return out
}
