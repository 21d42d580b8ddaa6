package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestLock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(p, []byte("one\n"), 0o644)
	since, err := StampOf(p)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := os.Open(p)
	defer a.Close()
	if err := Lock(a, &since); err != nil {
		t.Fatalf("first lock: %v", err)
	}
	b, _ := os.Open(p)
	defer b.Close()
	if err := Lock(b, &since); !errors.Is(err, ErrBusy) {
		t.Fatalf("second lock: %v, want ErrBusy", err)
	}
	a.Close() // releases the lock
	if err := Lock(b, &since); err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	b.Close()

	// appended to since it was read: refused
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("two\n")
	f.Close()
	c, _ := os.Open(p)
	defer c.Close()
	if err := Lock(c, &since); !errors.Is(err, ErrChanged) {
		t.Fatalf("lock of a changed file: %v, want ErrChanged", err)
	}
	// replaced by another file after it was opened: refused
	now, _ := StampOf(p)
	d, _ := os.Open(p)
	defer d.Close()
	os.WriteFile(p+".new", []byte("other\n"), 0o644)
	os.Rename(p+".new", p)
	if err := Lock(d, &now); !errors.Is(err, ErrChanged) {
		t.Fatalf("lock of a replaced path: %v, want ErrChanged", err)
	}
	if err := Unchanged(p, now); !errors.Is(err, ErrChanged) {
		t.Fatalf("Unchanged after replace: %v", err)
	}
}
