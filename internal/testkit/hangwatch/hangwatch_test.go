package hangwatch

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The two ways to hang are told apart, and a process that ends by itself
// is never killed, however long it waits (here: a sleeping shell that does
// end, within the stall window).
func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cmd   []string
		lim   Limits
		want  string // substring of the verdict, "" for none
		exits bool
	}{
		{"ends by itself", []string{"sh", "-c", "sleep 0.3; exit 3"}, Limits{CPU: time.Minute, Stall: 10 * time.Second}, "", true},
		{"blocked", []string{"sleep", "60"}, Limits{CPU: time.Minute, Stall: time.Second}, "no CPU time", false},
		{"busy loop", []string{"sh", "-c", "while :; do :; done"}, Limits{CPU: 300 * time.Millisecond, Stall: time.Minute}, "CPU time", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(tc.cmd[0], tc.cmd[1:]...)
			v, err := Run(cmd, tc.lim)
			if tc.want == "" && v != "" || tc.want != "" && !strings.Contains(string(v), tc.want) {
				t.Fatalf("verdict %q, want %q", v, tc.want)
			}
			if tc.exits && cmd.ProcessState.ExitCode() != 3 {
				t.Errorf("exit %d (%v), want 3", cmd.ProcessState.ExitCode(), err)
			}
			if !tc.exits && cmd.ProcessState.Exited() {
				t.Errorf("not killed: %v", cmd.ProcessState)
			}
		})
	}
}

// Wait returns once done is closed, says "blocked" for a wait on nothing
// (this process then uses no CPU), and names the budget when the process
// keeps busy while the awaited thing never comes.
func TestWait(t *testing.T) {
	done := make(chan struct{})
	go func() { time.Sleep(100 * time.Millisecond); close(done) }()
	if v := Wait(done, Limits{CPU: time.Minute, Stall: 10 * time.Second}); v != "" {
		t.Fatalf("verdict %q for a wait that ended", v)
	}
	if v := Wait(make(chan struct{}), Limits{CPU: time.Minute, Stall: time.Second}); !strings.Contains(string(v), "no CPU time") {
		t.Fatalf("verdict %q for a wait on nothing, want blocked", v)
	}
	burn := make(chan struct{})
	go func() {
		for {
			select {
			case <-burn:
				return
			default:
			}
		}
	}()
	defer close(burn)
	if v := Wait(make(chan struct{}), Limits{CPU: 200 * time.Millisecond, Stall: time.Minute}); !strings.Contains(string(v), "CPU time") {
		t.Fatalf("verdict %q for a busy wait, want the CPU budget", v)
	}
}

// WatchTree counts the CPU time of a process's children: a shell that
// waits on a busy child is busy, and a tree that only sleeps is blocked.
func TestWatchTree(t *testing.T) {
	for _, tc := range []struct {
		name, script, want string
	}{
		{"busy child", "sh -c 'while :; do :; done' & wait", "CPU time"},
		{"sleeping child", "sleep 60 & wait", "no CPU time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", tc.script)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			v := WatchTree(cmd.Process.Pid, done, Limits{CPU: 300 * time.Millisecond, Stall: 2 * time.Second})
			exec.Command("pkill", "-KILL", "-P", strconv.Itoa(cmd.Process.Pid)).Run()
			cmd.Process.Kill()
			<-done
			if !strings.Contains(string(v), tc.want) {
				t.Errorf("verdict %q, want %q", v, tc.want)
			}
		})
	}
}

// Guard kills a server that sits idle while the test, waiting on it, is
// idle too.
func TestGuard(t *testing.T) {
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := Guard(cmd.Process, Limits{CPU: time.Minute, Stall: 3 * time.Second})
	defer stop()
	cmd.Wait() // blocks for the five minutes the sleep lasts if Guard does not kill it
	if cmd.ProcessState.Exited() {
		t.Errorf("the idle server was not killed: %v", cmd.ProcessState)
	}
}
