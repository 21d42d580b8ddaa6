//go:build unix

package main

import (
	"fmt"
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

// A run stopped by SIGTERM, or by SIGPIPE when the reader of its output
// goes away, removes the copy of standard input it spooled and the output
// it staged (issue 18: both stayed in the temporary directory, as large as
// the input). TMPDIR is private to each run, so it must end empty.
func TestSignalsLeaveNoTemporaryCopies(t *testing.T) {
	// A valid flat session of 8 MB, so that the run is still going.
	var b strings.Builder
	b.WriteString(flatHeader)
	for i, parent := 0, ""; b.Len() < 8<<20; i++ {
		id := fmt.Sprintf("%08x", i)
		b.WriteString(flatMessage(id, parent, "some text of a message"))
		parent = id
	}
	big := []byte(b.String())
	t.Run("SIGTERM while spooling", func(t *testing.T) {
		tmp := t.TempDir()
		cmd := exec.Command(sesstoolBin(t), "convert", "--to", "flat", "-o", "-")
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go in.Write(big) // and keep standard input open: the run waits for more
		waitFor(t, func() bool { return len(list(tmp)) > 0 })
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		in.Close()
		if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
			t.Errorf("status %v, want killed by SIGTERM", cmd.ProcessState)
		}
		if left := list(tmp); len(left) > 0 {
			t.Errorf("left in TMPDIR: %v", left)
		}
	})
	t.Run("SIGPIPE writing standard output", func(t *testing.T) {
		tmp := t.TempDir()
		cmd := exec.Command(sesstoolBin(t), "convert", "--to", "tree", "-o", "-")
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
		cmd.Stdin = strings.NewReader(string(big))
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = w, io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		w.Close()
		buf := make([]byte, 1)
		r.Read(buf) // the first byte, then the reader goes away
		r.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		if v := hangwatch.Watch(cmd.Process.Pid, done, hangwatch.Limits{CPU: time.Minute, Stall: stall}); v != "" {
			cmd.Process.Kill()
			t.Fatalf("the run did not end when its reader went away (%s)", v)
		}
		if left := list(tmp); len(left) > 0 {
			t.Errorf("left in TMPDIR after %v: %v", cmd.ProcessState, left)
		}
	})
}

func list(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if p != dir {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if ok() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("timed out waiting")
}
