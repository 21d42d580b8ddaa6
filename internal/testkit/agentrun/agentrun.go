// Package agentrun runs a real agent (Claude Code, Codex, OpenCode, …) for
// a test: in a throwaway home and work folder, offline against the mock
// model, with a watchdog that judges a hang by progress, never by wall
// time alone, so a loaded machine slows a run without failing it.
package agentrun

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Cmd is one run of an agent.
type Cmd struct {
	Bin  string
	Args []string
	Dir  string   // working directory (the project the agent works in)
	Home string   // HOME for the run
	Env  []string // added to the base environment (PATH, HOME, TMPDIR, LANG)

	// Progress reports a count that grows while the agent works (the
	// mock's request count); nil counts nothing.
	Progress func() int
	// Stall is how long every process of the run may sleep with no
	// progress of any kind before the run is called hung (default 3 min).
	Stall time.Duration
}

// Result is what a run printed and how it ended.
type Result struct {
	Stdout, Stderr string
	Err            error // nil, an *exec.ExitError, or ErrHung
	Hung           bool
}

// Env returns the base environment of a run: the caller's PATH (agents
// start node and shells from it), the run's HOME and a private TMPDIR,
// and nothing else of the caller's, so no real key, proxy or config
// reaches the agent.
func (c Cmd) env(tmp string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + c.Home,
		"TMPDIR=" + tmp,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"CI=true",
	}
	return append(env, c.Env...)
}

// Run runs c to its end and returns what it printed. A run is killed, its
// whole process group, when the test ends or when it stalls.
func Run(t testing.TB, c Cmd) Result {
	t.Helper()
	tmp := filepath.Join(c.Home, ".tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatalf("agentrun: %v", err)
	}
	cmd := exec.Command(c.Bin, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = c.env(tmp)
	cmd.Stdin = nil // agents must not wait for a terminal
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("agentrun: starting %s: %v", c.Bin, err)
	}
	pgid := cmd.Process.Pid
	kill := func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
	t.Cleanup(kill)

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stall := c.Stall
	if stall == 0 {
		stall = 3 * time.Minute
	}
	w := watch{c: c, pgid: pgid, out: func() int { return stdout.Len() + stderr.Len() }}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	idleSince := time.Now()
	for {
		select {
		case err := <-done:
			kill() // what the agent left running in its group
			return Result{Stdout: stdout.String(), Stderr: stderr.String(), Err: err}
		case <-tick.C:
			if w.moved() {
				idleSince = time.Now()
			} else if time.Since(idleSince) > stall {
				kill()
				<-done
				return Result{Stdout: stdout.String(), Stderr: stderr.String(), Err: ErrHung, Hung: true}
			}
		}
	}
}

// ErrHung is a run that slept with no progress for its whole Stall.
var ErrHung = hungError{}

type hungError struct{}

func (hungError) Error() string { return "hung: no progress, every process asleep" }

// watch samples the signs that a run is alive.
type watch struct {
	c    Cmd
	pgid int
	out  func() int

	last struct {
		progress, out int
		cpu           uint64
	}
}

// moved says whether anything advanced since the last sample: the mock's
// requests, the output, the CPU time of the run's processes, or a process
// that is runnable (waiting for a core is not a hang).
func (w *watch) moved() bool {
	p := 0
	if w.c.Progress != nil {
		p = w.c.Progress()
	}
	o := w.out()
	cpu, runnable := groupCPU(w.pgid)
	moved := p != w.last.progress || o != w.last.out || cpu != w.last.cpu || runnable
	w.last.progress, w.last.out, w.last.cpu = p, o, cpu
	return moved
}

// groupCPU sums user and system clock ticks over the processes of a
// process group, from /proc, and says whether any is runnable.
func groupCPU(pgid int) (ticks uint64, runnable bool) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// The command name may hold spaces and parentheses: fields start
		// after the last ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		// f[0] state, f[2] pgrp, f[11] utime, f[12] stime.
		if len(f) < 13 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		if f[0] == "R" {
			runnable = true
		}
		u, _ := strconv.ParseUint(f[11], 10, 64)
		s, _ := strconv.ParseUint(f[12], 10, 64)
		ticks += u + s
	}
	return ticks, runnable
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
