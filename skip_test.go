package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
)

// The same store, holding a valid session, a garbage .jsonl and an
// unreadable subfolder, gives the same findings for that file and that
// folder under all six commands (issue 14), and none of them stops early.
// Root reads a chmod 000 folder anyway, so as root the commands run as
// nobody; testscript cannot switch users, hence a Go test.
func TestSameFindingsEverywhere(t *testing.T) {
	// Not t.TempDir: its parent is private to root, and nobody must reach it.
	work, err := os.MkdirTemp("", "sesstool-skip-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(work) })
	if err := os.Chmod(work, 0o777); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(work, "store")
	write := func(rel, content string) {
		p := filepath.Join(store, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("proj/good.jsonl", `{"type":"session","version":3,"id":"s3","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/p"}`+"\n"+
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-06T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1767693601000}}`+"\n")
	write("garbage.jsonl", "{\"half\": \n")
	write("locked/hidden.jsonl", `{"type":"session","version":3,"id":"h","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/p"}`+"\n")
	if err := os.Chmod(filepath.Join(store, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	// Registered after RemoveAll, so it runs first.
	t.Cleanup(func() { os.Chmod(filepath.Join(store, "locked"), 0o755) })
	for _, d := range []string{store, filepath.Join(store, "proj")} {
		os.Chmod(d, 0o777)
	}
	run := runner(t, work)

	findings := []string{
		"store/garbage.jsonl:0: warning: not a session in any known format (unknown-format)",
		"store/locked:0: warning: cannot be read: permission denied (unreadable)",
	}
	for _, tc := range []struct {
		args []string
		// what shows the valid session was still read
		read string
	}{
		{[]string{"validate", "store"}, "1 files, 1 entries, 0 errors, 2 warnings"},
		{[]string{"info", "store"}, "store/proj/good.jsonl"},
		{[]string{"detect", "store"}, "store/proj/good.jsonl: tree v3"},
		{[]string{"convert", "--to", "flat", "-o", "out", "store"}, "out/s3.jsonl"},
		{[]string{"export", "markdown", "-o", "md", "store"}, "md/s3.md"},
		{[]string{"migrate", "--dry-run", "store"}, "store/proj/good.jsonl: already at version 3, not touched"},
	} {
		code, out := run(tc.args...)
		name := strings.Join(tc.args, " ")
		if code != 0 {
			t.Errorf("%s: exit %d, want 0 (warnings only)\n%s", name, code, out)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		for _, want := range append(findings, tc.read) {
			if !contains(lines, want) {
				t.Errorf("%s: no line %q in\n%s", name, want, out)
			}
		}
	}

	// Named, the unreadable folder is an error and an I/O failure (exit 3),
	// and the other paths are still read.
	code, out := run("validate", "store/locked", "store/proj")
	if code != 3 || !contains(strings.Split(out, "\n"), "store/locked:0: error: cannot be read: permission denied (unreadable)") ||
		!strings.Contains(out, "2 files, 1 entries, 1 errors, 0 warnings") {
		t.Errorf("validate store/locked store/proj: exit %d\n%s", code, out)
	}
}

func contains(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}

// runner runs sesstool in dir, as nobody when the test runs as root (the
// binary is copied where nobody can run it), and returns the exit code and
// standard output then standard error.
func runner(t *testing.T, dir string) func(args ...string) (int, string) {
	bin := sesstoolBin(t)
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		bin = copyExecutable(t)
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	return func(args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "NO_COLOR=1", "HOME="+dir, "TMPDIR="+dir)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		hung, err := hangwatch.Run(cmd, hangwatch.Limits{CPU: time.Minute, Stall: stall})
		if err != nil && cmd.ProcessState == nil || hung != "" {
			t.Fatalf("run %v: %v %s", args, err, hung)
		}
		return cmd.ProcessState.ExitCode(), stdout.String() + stderr.String()
	}
}

func copyExecutable(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "sesstool-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	src, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	p := filepath.Join(dir, "sesstool")
	dst, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}
