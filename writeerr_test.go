//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A command whose output cannot be written says so and exits 3 (issue 18):
// before, detect and schema list wrote into /dev/full and exited 0.
func TestWriteErrorsAreReported(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	for _, args := range [][]string{
		{"detect", "testdata/samples/flat"},
		{"schema", "list"},
		{"schema", "show", "ash/v1/block.json"},
	} {
		cmd := exec.Command(sesstoolBin(t), args...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		cmd.Run()
		code := cmd.ProcessState.ExitCode()
		if code != 3 || !strings.Contains(stderr.String(), "write /dev/stdout: no space left on device") {
			t.Errorf("%v into /dev/full: exit %d, %q; want exit 3 naming the write error", args, code, stderr.String())
		}
	}
}

// --workers past any machine's CPUs is a usage error, not a Go runtime
// crash with a stack trace (issue 18).
func TestWorkersBounded(t *testing.T) {
	for _, n := range []string{"1000000000000", "-1"} {
		r := runBin(t, ".", nil, 60e9, "validate", "--workers", n, "testdata/samples/flat")
		if r.code != 2 || !strings.Contains(r.out, "--workers must be between 0 (one per CPU) and 1024") || strings.Contains(r.out, "goroutine") {
			t.Errorf("--workers %s: exit %d:\n%s", n, r.code, clipOut(r.out))
		}
	}
}
