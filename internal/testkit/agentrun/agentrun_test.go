package agentrun

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestRunReturnsOutputAndExit(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	home := t.TempDir()
	r := Run(t, Cmd{Bin: sh, Args: []string{"-c", "echo out; echo err >&2; echo $HOME; exit 3"}, Dir: home, Home: home})
	var ee *exec.ExitError
	if !errors.As(r.Err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("err = %v, want exit 3", r.Err)
	}
	if !strings.Contains(r.Stdout, "out\n"+home) || r.Stderr != "err\n" {
		t.Fatalf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
}

// A process that sleeps with no progress is hung once Stall has passed;
// one that keeps using the CPU is not, however long it runs.
func TestRunStall(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	home := t.TempDir()
	r := Run(t, Cmd{Bin: sh, Args: []string{"-c", "sleep 600"}, Dir: home, Home: home, Stall: 2 * time.Second})
	if !r.Hung || !errors.Is(r.Err, ErrHung) {
		t.Fatalf("a sleeping run was not called hung: %+v", r)
	}
	// Busy for longer than Stall: alive, since its CPU time grows.
	r = Run(t, Cmd{Bin: sh, Args: []string{"-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done; echo ok"}, Dir: home, Home: home, Stall: time.Second})
	if r.Hung || r.Err != nil || r.Stdout != "ok\n" {
		t.Fatalf("a busy run was stopped: %+v", r)
	}
}
