package codex

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// TestIndex: the titles of the sessions written into a home are appended
// to its session_index.jsonl as Codex 0.169 writes a rename; every other
// byte of the index stays as it was, a title the index already gives is
// not written again, and a session without a title writes nothing at all.
func TestIndex(t *testing.T) {
	at := func(s string) session.Time { tm, _ := session.ParseTime(s); return tm }
	a := &session.Meta{ID: "0195f0a0-0000-7000-8000-0000000000a1", Title: "Fix \"the\" bug\n— é", Created: at("2026-03-04T10:00:00.123Z")}
	b := &session.Meta{ID: "ses_other", Title: "From OpenCode", Created: at("2026-03-04T10:00:00Z"), Updated: at("2026-03-05T08:09:10.123456Z")}
	untitled := &session.Meta{ID: "0195f0a0-0000-7000-8000-0000000000a3", Created: at("2026-03-04T10:00:00Z")}
	old := "{\"id\":\"x\",\"thread_name\":\"kept\" , \"updated_at\":\"2020-01-01T00:00:00Z\"}\r\n\n" +
		`{"id":"0195f0a0-0000-7000-8000-0000000000a1","thread_name":"an older name","updated_at":"2026-03-04T10:00:01Z"}` + "\n" +
		`{"id":"y","thread_name":"no newline at the end","updated_at":"2020-01-01T00:00:00Z"}`
	wantAdded := `{"id":"0195f0a0-0000-7000-8000-0000000000a1","thread_name":"Fix \"the\" bug\n— é","updated_at":"2026-03-04T10:00:00.123Z"}` + "\n" +
		`{"id":"` + SessionID(b) + `","thread_name":"From OpenCode","updated_at":"2026-03-05T08:09:10.123456Z"}` + "\n"

	t.Run("appended, the rest as it was", func(t *testing.T) {
		home := t.TempDir()
		path := filepath.Join(home, IndexFile)
		if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := (Format{}).Index(home, []*session.Meta{a, untitled, b}); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		if want := old + "\n" + wantAdded; string(got) != want {
			t.Errorf("index:\n%s\nwant:\n%s", got, want)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, want the old file's 0600", fi.Mode().Perm())
		}
		// Read back, each session has its title; written again, nothing changes.
		for _, m := range []*session.Meta{a, b} {
			if got := indexName(home, SessionID(m)).name; got != m.Title {
				t.Errorf("read back %q, want %q", got, m.Title)
			}
		}
		before, _ := os.Stat(path)
		if err := (Format{}).Index(home, []*session.Meta{a, b}); err != nil {
			t.Fatal(err)
		}
		after, _ := os.Stat(path)
		if !os.SameFile(before, after) {
			t.Error("the index was replaced though it already named every session")
		}
	})
	t.Run("no title, nothing written", func(t *testing.T) {
		home := t.TempDir()
		if err := (Format{}).Index(home, []*session.Meta{untitled}); err != nil {
			t.Fatal(err)
		}
		if n := names(t, home); len(n) != 0 {
			t.Errorf("wrote %v for sessions without a title", n)
		}
	})
	t.Run("a new index", func(t *testing.T) {
		home := t.TempDir()
		if err := (Format{}).Index(home, []*session.Meta{a, b}); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(filepath.Join(home, IndexFile)); string(got) != wantAdded {
			t.Errorf("index:\n%s\nwant:\n%s", got, wantAdded)
		}
	})
	t.Run("Codex holds its lock", func(t *testing.T) {
		home := t.TempDir()
		lf, err := os.Create(filepath.Join(home, IndexFile+".lock"))
		if err != nil {
			t.Fatal(err)
		}
		defer lf.Close()
		if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
			t.Fatal(err)
		}
		defer func(d time.Duration) { indexLockWait = d }(indexLockWait)
		indexLockWait = 200 * time.Millisecond
		err = (Format{}).Index(home, []*session.Meta{a})
		if !errors.Is(err, atomicfile.ErrBusy) {
			t.Errorf("got %v, want %v", err, atomicfile.ErrBusy)
		}
		if _, err := os.Stat(filepath.Join(home, IndexFile)); err == nil {
			t.Error("the index was written while Codex held its lock")
		}
	})
}

// TestIndexKeepsCodexLine: a session read from a Codex home and written
// into another gives the line its title was read from back byte for byte.
func TestIndexKeepsCodexLine(t *testing.T) {
	src := t.TempDir()
	id := "0195f0a0-0000-7000-8000-0000000000b1"
	rollout := writeRollout(t, src, id)
	line := `{"id":"` + id + `","thread_name":"Kept as Codex wrote it","updated_at":"2026-03-04T10:00:06.5Z"}`
	if err := os.WriteFile(filepath.Join(src, IndexFile), []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Format{}.Open(format.Ref{Path: rollout})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := t.TempDir()
	if err := (Format{}).Index(out, []*session.Meta{r.Meta()}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(out, IndexFile)); string(got) != line+"\n" {
		t.Errorf("index %q, want the source's line %q", got, line+"\n")
	}
}

// TestChronoTime: the index's times are spelt as chrono's serde does.
func TestChronoTime(t *testing.T) {
	base := time.Date(2026, 11, 23, 23, 31, 11, 0, time.UTC)
	for ns, want := range map[int]string{
		0:         "2026-11-23T23:31:11Z",
		818000000: "2026-11-23T23:31:11.818Z",
		818336000: "2026-11-23T23:31:11.818336Z",
		818336099: "2026-11-23T23:31:11.818336099Z",
	} {
		if got := chronoTime(base.Add(time.Duration(ns))); got != want {
			t.Errorf("%d ns: %s, want %s", ns, got, want)
		}
	}
}
