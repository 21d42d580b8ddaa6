// Package hangwatch tells a hung process or wait from a slow one without
// looking at the wall clock alone, so that no test's verdict depends on how
// loaded the machine is. A wait is declared hung when either
//
//   - the CPU time it has used passes a budget (a busy loop), or
//   - its CPU time has not moved at all for a stall window (blocked for
//     good: a deadlock, a read that never returns).
//
// A slow but working process on a machine busy with other work still gets
// some CPU in every window, so it is never declared hung; it only takes
// longer.
package hangwatch

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Limits bound a wait. CPU is the most CPU time (user and system) it may
// use; Stall how long its CPU time may stand still.
type Limits struct {
	CPU   time.Duration
	Stall time.Duration
}

// Default is for one sesstool run on a small input: seconds of CPU at most,
// and a minute without any is a process that waits for nothing.
var Default = Limits{CPU: 2 * time.Minute, Stall: 30 * time.Second}

// Recv receives from ch for a test, and fails it, saying what was awaited,
// when this process hangs by Default first (no wall-clock limit).
func Recv[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	var v T
	done := make(chan struct{})
	go func() { v = <-ch; close(done) }()
	if verdict := Wait(done, Default); verdict != "" {
		t.Fatalf("%s: the test process %s", what, verdict)
	}
	return v
}

// poll is how often the CPU time is read.
const poll = 200 * time.Millisecond

// Verdict says why a wait was ended, "" when it finished by itself.
type Verdict string

// Run starts cmd, waits for it and kills it when it hangs by lim (its CPU
// time and its children's). It returns Wait's error and the verdict (""
// when the process ended by itself).
func Run(cmd *exec.Cmd, lim Limits) (Verdict, error) {
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	pid := cmd.Process.Pid
	v := watch(done, func() (time.Duration, bool) { return treeCPU(pid) }, lim, func() { _ = cmd.Process.Kill() })
	err := <-done
	return v, err
}

// Watch blocks until done is closed, and returns a verdict when the
// process pid (started by the caller, who kills it) hangs by lim first.
func Watch(pid int, done <-chan struct{}, lim Limits) Verdict {
	finished := make(chan error, 1)
	go func() { <-done; finished <- nil }()
	return watch(finished, func() (time.Duration, bool) { return procCPU(pid) }, lim, func() {})
}

// WatchTree is Watch for a process that works through children of its own
// (a browser's renderers): the CPU time counted is that of pid and of every
// process below it.
func WatchTree(pid int, done <-chan struct{}, lim Limits) Verdict {
	finished := make(chan error, 1)
	go func() { <-done; finished <- nil }()
	return watch(finished, func() (time.Duration, bool) { return treeCPU(pid) }, lim, func() {})
}

// Guard watches a server process that a test talks to, and kills it when
// the two of them hang by lim: their CPU time together stands still (the
// test waits on an answer that will not come) or passes the budget. Either
// one working is progress, so a server idle while the test works is left
// alone. Calling the returned function stops the watch.
func Guard(p *os.Process, lim Limits) (stop func()) {
	done := make(chan struct{})
	finished := make(chan error, 1)
	go func() { <-done; finished <- nil }()
	go watch(finished, func() (time.Duration, bool) {
		a, ok := treeCPU(p.Pid)
		b, _ := selfCPU()
		return a + b, ok
	}, lim, func() { _ = p.Kill() })
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

// Wait blocks until done is closed, and returns a verdict when this
// process (the test binary) hangs by lim first: its CPU time is what moves
// while the awaited goroutines work.
func Wait(done <-chan struct{}, lim Limits) Verdict {
	finished := make(chan error, 1)
	go func() { <-done; finished <- nil }()
	v := watch(finished, selfCPU, lim, func() {})
	if v != "" {
		return v
	}
	<-finished
	return ""
}

// watch polls cpu until finished yields, and calls kill and returns a
// verdict when lim is passed. Once killed it still waits for finished when
// kill ends the work (a process); for an in-process wait it returns at once.
func watch(finished chan error, cpu func() (time.Duration, bool), lim Limits, kill func()) Verdict {
	// On a thread of its own, so that selfCPU can leave out what the
	// watch itself spends (reading /proc is not the test's progress).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, ok := cpu()
	if !ok {
		start = 0
	}
	last, lastMove := start, time.Now()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case err := <-finished:
			finished <- err // left for the caller
			return ""
		case <-tick.C:
		}
		now, ok := cpu()
		if !ok {
			continue // the process is gone: finished is about to yield
		}
		// A hundredth of the window counts as moving: the Go runtime of a
		// blocked test binary still spends a little (its timers, threads
		// woken to look for work), a working process far more (on 2 cores
		// at a load of 27 it still gets 7%).
		if now < last {
			last = now // a child ended and took its time out of the sum
		}
		if now-last > lim.Stall/100 {
			last, lastMove = now, time.Now()
		}
		var v Verdict
		switch {
		case lim.CPU > 0 && now-start > lim.CPU:
			v = Verdict(fmt.Sprintf("used more than %v of CPU time", lim.CPU))
		case lim.Stall > 0 && time.Since(lastMove) > lim.Stall:
			v = Verdict(fmt.Sprintf("used no CPU time for %v (blocked)", lim.Stall))
		}
		if v != "" {
			kill()
			return v
		}
	}
}

// clockTick is the unit of /proc/PID/stat's times (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// treeCPU is the CPU time of pid and its descendants, as running now,
// found through /proc/PID/task/TID/children (the tree only: scanning all
// of /proc five times a second costs a busy machine more than the tests).
func treeCPU(pid int) (time.Duration, bool) {
	own, ok := procCPU(pid)
	if !ok {
		return 0, false
	}
	sum, seen := own, map[int]bool{pid: true}
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(p) + "/task")
		for _, task := range tasks {
			b, _ := os.ReadFile("/proc/" + strconv.Itoa(p) + "/task/" + task.Name() + "/children")
			for _, f := range strings.Fields(string(b)) {
				c, err := strconv.Atoi(f)
				if err != nil || seen[c] {
					continue
				}
				seen[c] = true
				if cpu, ok := procCPU(c); ok {
					sum += cpu
				}
				queue = append(queue, c)
			}
		}
	}
	return sum, true
}

// procCPU is a running process's user and system time, from /proc; false
// when it cannot be read (gone, or not Linux).
func procCPU(pid int) (time.Duration, bool) {
	f, ok := statFields(pid)
	if !ok {
		return 0, false
	}
	return fieldsCPU(f), true
}

// statFields are the fields of /proc/PID/stat from the third (the state)
// on: f[1] is the parent, f[11] and f[12] the user and system time.
func statFields(pid int) ([]string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	// The command name, field 2, is in parentheses and may hold spaces:
	// the fields counted from after its closing one.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, false
	}
	f := strings.Fields(s[i+1:])
	return f, len(f) >= 13
}

func fieldsCPU(f []string) time.Duration {
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+st) * clockTick
}

// selfCPU is this process's user and system time, less the calling
// thread's (the watch's own, see watch).
func selfCPU() (time.Duration, bool) {
	var all, own unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &all) != nil || unix.Getrusage(unix.RUSAGE_THREAD, &own) != nil {
		return 0, false
	}
	return time.Duration(all.Utime.Nano() + all.Stime.Nano() - own.Utime.Nano() - own.Stime.Nano()), true
}
