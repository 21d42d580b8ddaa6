//go:build unix

package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
)

// Each opener must refuse a FIFO at once: before the fix, os.Open of a
// FIFO with no writer never returned.
func TestFIFOIsRefusedWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	reg := filepath.Join(dir, "file")
	if err := os.WriteFile(reg, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	openers := map[string]func(string) error{
		"Open": func(p string) error {
			f, err := Open(p)
			if err == nil {
				f.Close()
			}
			return err
		},
		"ReadFile": func(p string) error { _, err := ReadFile(p); return err },
		"OpenFd": func(p string) error {
			fd, err := OpenFd(p)
			if err == nil {
				syscall.Close(fd)
			}
			return err
		},
	}
	for name, open := range openers {
		done := make(chan error, 1)
		go func() { done <- open(fifo) }()
		err := hangwatch.Recv(t, done, name+"(fifo) blocked")
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "named pipe (FIFO)") {
			t.Errorf("%s(fifo) = %v, want a not-regular error naming the path", name, err)
		}
		if err := open(reg); err != nil {
			t.Errorf("%s(regular file) = %v", name, err)
		}
	}
	if b, err := ReadFile(reg); err != nil || string(b) != "abc" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
	if _, err := ReadFile(dir); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFile(dir) = %v, want not regular", err)
	}
}
