//go:build unix

package cleanup

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestRunRemovesNewestFirstAndOnce(t *testing.T) {
	var got []int
	Add(func() { got = append(got, 1) })
	remove := Add(func() { got = append(got, 2) })
	Add(func() { got = append(got, 3) })
	remove()
	Run()
	Run()
	if len(got) != 2 || got[0] != 3 || got[1] != 1 {
		t.Errorf("ran %v, want [3 1]", got)
	}
}

// TestSignal runs this test binary as a child that registers the removal of
// a file and then waits; SIGTERM must remove the file and end the child
// with status 143.
func TestSignal(t *testing.T) {
	if p := os.Getenv("CLEANUP_CHILD"); p != "" {
		Signals()
		Add(func() { os.Remove(p) })
		os.WriteFile(p+".ready", nil, 0o600)
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	p := filepath.Join(t.TempDir(), "copy")
	if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignal$")
	cmd.Env = append(os.Environ(), "CLEANUP_CHILD="+p)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if _, err := os.Stat(p + ".ready"); err == nil {
			break
		}
		if i > 500 {
			cmd.Process.Kill()
			t.Fatal("the child never got ready")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 128+int(syscall.SIGTERM) {
		t.Errorf("child ended with %v, want exit status 143", err)
	}
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("SIGTERM left %s behind (%v)", p, err)
	}
}
