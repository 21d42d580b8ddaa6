package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/internal/testkit/walstore"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/registry"
)

// snapshot records every file and directory under root: type, mode, size,
// mtime and content hash (directories: their mtime, which changes when an
// entry is added or removed inside).
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		v := fmt.Sprintf("%v %d %d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			v += " " + hex.EncodeToString(sum[:])
		}
		out[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffSnapshots(a, b map[string]string) []string {
	var d []string
	for p, v := range a {
		if w, ok := b[p]; !ok {
			d = append(d, "removed "+p)
		} else if v != w {
			d = append(d, "changed "+p+": "+v+" -> "+w)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			d = append(d, "added "+p)
		}
	}
	sort.Strings(d)
	return d
}

// TestCommandsNeverChangeTheirInput copies every sample (a store of every
// layout) and runs validate, info, detect, export and convert on the whole
// store and on every session in it, writing outputs elsewhere; afterwards
// every file and directory must be exactly as before.
func TestCommandsNeverChangeTheirInput(t *testing.T) {
	work := t.TempDir()
	store := filepath.Join(work, "store")
	copyDir(t, "testdata/samples", store)
	copyDir(t, "format/tree/testdata", filepath.Join(store, "tree"))
	out := filepath.Join(work, "out")
	before := snapshot(t, store)

	units, skips := pipeline.Walk(store, nil)
	if pipeline.Code(skips) == 3 {
		t.Fatal(skips)
	}
	layouts := map[string]bool{}
	for _, u := range units {
		layouts[u.Format.Name()] = true
	}
	for _, f := range registry.All {
		if !layouts[f.Name()] {
			t.Errorf("the store has no %s session", f.Name())
		}
	}
	runs := [][]string{
		{"validate", store}, {"validate", "--output", "json", store}, {"info", store}, {"detect", store},
		{"list", store}, {"list", "--match", "x", "--cwd", "/", store},
	}
	perUnit := map[string]bool{}
	for i, u := range units {
		// under -short, the per-session runs cover one session of each
		// layout; the whole-store runs above read every one
		if short.On() && perUnit[u.Format.Name()] {
			continue
		}
		perUnit[u.Format.Name()] = true
		o := filepath.Join(out, fmt.Sprint(i))
		runs = append(runs, []string{"validate", u.Path}, []string{"info", u.Path}, []string{"detect", u.Path}, []string{"list", u.Path},
			[]string{"export", "html", "-o", o + ".html", u.Path}, []string{"export", "markdown", "-o", o + ".md", u.Path})
		// every reader runs whatever the target; one file and one
		// directory target keep the run short
		for _, to := range []string{"tree", "goat"} {
			runs = append(runs, []string{"convert", "--to", to, "-o", filepath.Join(o, to), u.Path})
		}
	}
	codes := map[int]int{}
	for _, args := range runs {
		r := runBin(t, work, nil, 2*time.Minute, args...)
		if r.hung != "" || strings.Contains(r.out, "internal error") {
			t.Errorf("%v: hung or panicked:\n%s", args, clipOut(r.out))
		}
		codes[r.code]++
	}
	if codes[0] < len(runs)/2 {
		t.Errorf("most runs failed (exit codes %v): the test is not exercising the commands", codes)
	}
	t.Logf("%d runs over %d sessions in %d layouts; exit codes %v", len(runs), len(units), len(layouts), codes)
	if d := diffSnapshots(before, snapshot(t, store)); len(d) > 0 {
		t.Errorf("the input store changed:\n%s", strings.Join(d, "\n"))
	}
}

// TestWALStoreNeverChanged: an OpenCode data directory copied while
// OpenCode ran, its newest rows only in opencode.db-wal, in a read-only
// directory. Every command reads those rows, changes nothing there
// (creates no -shm, checkpoints nothing), and leaves no private copy behind.
func TestWALStoreNeverChanged(t *testing.T) {
	sesstoolBin(t) // built before TMPDIR is pointed elsewhere
	work := t.TempDir()
	tmp := filepath.Join(work, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	store := filepath.Join(work, "opencode")
	walstore.Build(t, "testdata/samples/opencode/sqlite/opencode-1.2.1-after-json-migration.db", store, 7)
	if err := os.Chmod(store, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(store, 0o755) })
	before := snapshot(t, store)
	db := filepath.Join(store, "opencode.db")
	out := filepath.Join(work, "out")
	for _, args := range [][]string{
		{"validate", store}, {"validate", db}, {"info", store}, {"detect", db},
		{"export", "markdown", "--session", "ses_e03a7a64affe0wHc2prdw2R2s7", "-o", filepath.Join(out, "s.md"), store},
		{"convert", "--to", "goat", "-o", filepath.Join(out, "goat"), db},
	} {
		r := runBin(t, work, nil, 2*time.Minute, args...)
		if r.code != 0 {
			t.Errorf("%v: exit %d:\n%s", args, r.code, clipOut(r.out))
		}
		if args[0] == "info" && !strings.Contains(r.out, "messages: 8 (assistant 4, tool 3, user 1)") {
			t.Errorf("info does not read the messages in the log:\n%s", clipOut(r.out))
		}
	}
	if d := diffSnapshots(before, snapshot(t, store)); len(d) > 0 {
		t.Errorf("the input store changed:\n%s", strings.Join(d, "\n"))
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "sesstool-opencode-*"))
	if len(left) > 0 {
		t.Errorf("private copies left behind: %v", left)
	}
}

// TestWALCopyGoesOnSIGTERM: the private copy of a database with a
// write-ahead log lives as long as the run; a run ended by SIGTERM removes
// it too. validate reads the store, then waits on standard input, where it
// is stopped.
func TestWALCopyGoesOnSIGTERM(t *testing.T) {
	work := t.TempDir()
	tmp := filepath.Join(work, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(work, "opencode")
	walstore.Build(t, "testdata/samples/opencode/sqlite/opencode-1.2.1-after-json-migration.db", store, 7)
	cmd := exec.Command(sesstoolBin(t), "validate", store, "-")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "NO_COLOR=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	copies := func() []string { m, _ := filepath.Glob(filepath.Join(tmp, "sesstool-opencode-*")); return m }
	// Wait for the copy while the run works; a run that stops working
	// first (hangwatch) never made one.
	made, stop := make(chan struct{}), make(chan struct{})
	defer close(stop)
	go func() {
		defer close(made)
		for len(copies()) == 0 {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	if v := hangwatch.Watch(cmd.Process.Pid, made, hangwatch.Limits{CPU: time.Minute, Stall: stall}); v != "" || len(copies()) == 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("no private copy was made")
	}
	time.Sleep(200 * time.Millisecond) // the store is read; validate waits on standard input
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	if left := copies(); len(left) > 0 {
		t.Errorf("SIGTERM left the private copy behind: %v", left)
	}
}
