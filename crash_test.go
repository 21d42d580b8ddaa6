package main

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sesstool/sesstool/internal/testkit/shared"
)

// Crash safety (issue 10): a process killed at any moment, a full disk and
// two concurrent migrations leave the old file or the complete new one.

// bigTree builds a ~9.5 MB tree v1 session from a real pi sample in the
// shared folder (its entries repeated; v1 entries have no ids, so repeats
// stay valid).
func bigTree(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(shared.Sample(t, "pi/pi-mono_before-compaction.v1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := bytes.Cut(b, []byte("\n"))
	var out bytes.Buffer
	out.Write(b)
	for i := 0; i < 3; i++ {
		out.Write(body)
	}
	p := filepath.Join(dir, "big.jsonl")
	if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	if r := runBin(t, dir, nil, 2*time.Minute, args...); r.code != 0 {
		t.Fatalf("%v: exit %d\n%s", args, r.code, r.out)
	}
}

func readOrFail(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// killLoop runs args (in dir) n times, each killed with SIGKILL after a
// random delay up to max, calling check after each.
func killLoop(t *testing.T, dir string, n int, max time.Duration, prepare func(), args []string, check func(i int, finished bool)) {
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	for i := 0; i < n; i++ {
		prepare()
		cmd := exec.Command(sesstoolBin(t), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int63n(int64(max))))
		_ = cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		check(i, err == nil)
	}
}

// timed measures one uninterrupted run, to spread the kills over it.
func timed(t *testing.T, dir string, args ...string) time.Duration {
	start := time.Now()
	mustRun(t, dir, args...)
	return time.Since(start)
}

func TestKillDuringMigrate(t *testing.T) {
	if testing.Short() {
		t.Skip("kill loop; skipped with -short")
	}
	dir := t.TempDir()
	orig := readOrFail(t, bigTree(t, dir))
	work := filepath.Join(dir, "work.jsonl")
	os.WriteFile(work, orig, 0o644)
	mustRun(t, dir, "migrate", "-o", "want.jsonl", "work.jsonl")
	want := readOrFail(t, filepath.Join(dir, "want.jsonl"))
	d := timed(t, dir, "migrate", "--no-backup", "work.jsonl")
	if got := readOrFail(t, work); !bytes.Equal(got, want) {
		t.Fatal("an uninterrupted migration in place differs from migrate -o")
	}
	var old, full int
	killLoop(t, dir, 30, d+d/4, func() {
		os.WriteFile(work, orig, 0o644)
	}, []string{"migrate", "--no-backup", "work.jsonl"}, func(i int, finished bool) {
		got := readOrFail(t, work)
		switch {
		case bytes.Equal(got, orig):
			old++
		case bytes.Equal(got, want):
			full++
		default:
			t.Fatalf("kill %d: work.jsonl is neither the original nor the migrated file (%d bytes)", i, len(got))
		}
		removeTemps(t, dir)
	})
	t.Logf("30 kills: %d left the original, %d the complete migration", old, full)
}

func TestKillDuringConvert(t *testing.T) {
	if testing.Short() {
		t.Skip("kill loop; skipped with -short")
	}
	dir := t.TempDir()
	bigTree(t, dir)
	mustRun(t, dir, "convert", "--to", "flat", "-o", "want.jsonl", "big.jsonl")
	want := readOrFail(t, filepath.Join(dir, "want.jsonl"))
	old := []byte("previous output\n")
	out := filepath.Join(dir, "out.jsonl")
	os.WriteFile(out, old, 0o644)
	d := timed(t, dir, "convert", "--to", "flat", "--force", "-o", "out.jsonl", "big.jsonl")
	var kept, full int
	killLoop(t, dir, 30, 2*d, func() {
		os.WriteFile(out, old, 0o644)
	}, []string{"convert", "--to", "flat", "--force", "-o", "out.jsonl", "big.jsonl"}, func(i int, finished bool) {
		got := readOrFail(t, out)
		switch {
		case bytes.Equal(got, old):
			kept++
		case bytes.Equal(got, want):
			full++
		default:
			t.Fatalf("kill %d: out.jsonl is neither the previous nor the complete output (%d bytes)", i, len(got))
		}
		removeTemps(t, dir)
	})
	t.Logf("30 kills: %d left the previous output, %d the complete one", kept, full)
}

// removeTemps deletes what a killed run leaves: hidden temporary files and
// staging directories (never visible names, which the checks cover).
func removeTemps(t *testing.T, dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// runLimited runs sesstool with RLIMIT_FSIZE set (sh's ulimit -f, in
// 512-byte blocks under POSIX sh; any limit far below the output works):
// a write past it fails with EFBIG (Go ignores SIGXFSZ), as on a full disk.
func runLimited(t *testing.T, dir, blocks string, args ...string) result {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"-c", `ulimit -f "$0" && exec "$@"`, blocks, sesstoolBin(t)}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run()
	return result{code: cmd.ProcessState.ExitCode(), out: out.String()}
}

func TestDiskFull(t *testing.T) {
	dir := t.TempDir()
	orig := readOrFail(t, bigTree(t, dir))
	for _, c := range []struct {
		name string
		args []string
		file string // must be unchanged
	}{
		{"migrate in place", []string{"migrate", "big.jsonl"}, "big.jsonl"},
		{"migrate in place, no backup", []string{"migrate", "--no-backup", "big.jsonl"}, "big.jsonl"},
		{"convert over an existing output", []string{"convert", "--to", "tree", "--force", "-o", "out.jsonl", "big.jsonl"}, "out.jsonl"},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(filepath.Join(dir, "out.jsonl"), []byte("previous output\n"), 0o644)
			before := readOrFail(t, filepath.Join(dir, c.file))
			r := runLimited(t, dir, "2048", c.args...)
			if r.code != 3 || !strings.Contains(r.out, "file too large") || strings.Count(strings.TrimSpace(r.out), "\n") > 0 {
				t.Errorf("exit %d, want 3 and one line naming the error:\n%s", r.code, r.out)
			}
			if !bytes.Equal(readOrFail(t, filepath.Join(dir, c.file)), before) {
				t.Errorf("%s changed", c.file)
			}
			if !bytes.Equal(readOrFail(t, filepath.Join(dir, "big.jsonl")), orig) {
				t.Error("the input changed")
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), ".") || strings.HasSuffix(e.Name(), ".bak") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// Two processes migrating one file at once: one does it, the other is
// refused (locked, or the file changed under it) or finds it done; the
// file is always the complete migration.
func TestConcurrentMigrate(t *testing.T) {
	if testing.Short() {
		t.Skip("concurrent processes; skipped with -short")
	}
	dir := t.TempDir()
	orig := readOrFail(t, bigTree(t, dir))
	work := filepath.Join(dir, "work.jsonl")
	os.WriteFile(work, orig, 0o644)
	mustRun(t, dir, "migrate", "-o", "want.jsonl", "work.jsonl")
	want := readOrFail(t, filepath.Join(dir, "want.jsonl"))
	outcomes := map[string]int{}
	for i := 0; i < 10; i++ {
		os.WriteFile(work, orig, 0o644)
		var wg sync.WaitGroup
		res := make([]result, 2)
		for j := range res {
			wg.Add(1)
			go func(j int) {
				defer wg.Done()
				time.Sleep(time.Duration(j*i) * 10 * time.Millisecond) // vary the overlap
				res[j] = runBin(t, dir, nil, 2*time.Minute, "migrate", "--no-backup", "work.jsonl")
			}(j)
		}
		wg.Wait()
		if got := readOrFail(t, work); !bytes.Equal(got, want) {
			t.Fatalf("round %d: the file is not the complete migration (%d bytes)\n%s\n%s", i, len(got), res[0].out, res[1].out)
		}
		for _, r := range res {
			switch {
			case r.code == 0 && strings.Contains(r.out, "migrated 1 -> 3"):
				outcomes["migrated"]++
			case r.code == 0 && strings.Contains(r.out, "already at version 3"):
				outcomes["found it done"]++
			case r.code == 3 && strings.Contains(r.out, "file locked"):
				outcomes["refused: locked"]++
			case r.code == 3 && strings.Contains(r.out, "changed while sesstool was working on it"):
				outcomes["refused: changed"]++
			default:
				t.Fatalf("round %d: unexpected outcome: exit %d\n%s", i, r.code, r.out)
			}
		}
		if outcomes["migrated"] == 0 {
			t.Fatalf("round %d: nobody migrated", i)
		}
	}
	t.Logf("outcomes over 10 rounds: %v", outcomes)
}
