package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileReplacesKeepingMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new"), 0o644, false); !errors.Is(err, ErrExists) {
		t.Fatalf("replace=false on existing file: err = %v, want ErrExists", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("refused write changed the file: %q", b)
	}
	if err := WriteFile(p, []byte("new"), 0o644, true); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "new" || fi.Mode().Perm() != 0o600 {
		t.Errorf("got %q mode %v, want \"new\" mode 0600", b, fi.Mode().Perm())
	}
	assertNoTemp(t, dir)
}

func TestAbortLeavesOriginal(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	os.WriteFile(p, []byte("old"), 0o644)
	f, err := Create(p, 0o644, true)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("partial"))
	f.Abort()
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("abort changed the file: %q", b)
	}
	assertNoTemp(t, dir)
	if err := f.Commit(); err == nil {
		t.Error("commit after abort succeeded")
	}
}

func TestCreateNewFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "new.json")
	if err := WriteFile(p, []byte("{}"), 0o640, false); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("stat %v, mode %v", err, fi.Mode().Perm())
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("temporary files left behind: %v", names)
	}
}

// TestCheckRunsLastAndAborts: Check runs after the content is fsynced (the
// "synced" hook) and before the rename; its error leaves the original.
func TestCheckRunsLastAndAborts(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	os.WriteFile(p, []byte("old"), 0o644)
	var order []string
	Hook = func(point, _ string) { order = append(order, point) }
	defer func() { Hook = nil }()
	f, err := Create(p, 0o644, true)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	refused := errors.New("changed")
	f.Check = func() error { order = append(order, "check"); return refused }
	if err := f.Commit(); !errors.Is(err, refused) {
		t.Fatalf("commit: %v, want the check's error", err)
	}
	if got := strings.Join(order, ","); got != "synced,check" {
		t.Errorf("order %s, want synced,check", got)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("a refused commit replaced the file: %q", b)
	}
	assertNoTemp(t, dir)
}

// A name near the 255-byte limit still gets a temporary file (issue 18:
// ".NAME.tmp-NNN" was too long, ENAMETOOLONG), and a symbolic link is
// written through, not replaced.
func TestLongNameAndSymlink(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, strings.Repeat("é", 124)+"a.jsonl") // 255 bytes
	if err := WriteFile(long, []byte("x"), 0o644, false); err != nil {
		t.Fatalf("write a %d-byte name: %v", len(filepath.Base(long)), err)
	}
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("target", link); err != nil {
		t.Skip(err)
	}
	if err := WriteFile(link, []byte("new"), 0o644, true); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link replaced by a file")
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("target holds %q, want new", b)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want 0600 kept", fi.Mode().Perm())
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("nowhere/x", dangling)
	if err := WriteFile(dangling, []byte("x"), 0o644, true); err == nil || !strings.Contains(err.Error(), "symbolic link whose target cannot be reached") {
		t.Errorf("dangling link: %v", err)
	}
}
