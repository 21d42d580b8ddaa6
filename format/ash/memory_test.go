package ash

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/report"
)

// writeChain writes an ash session of n tiny messages, each the parent of
// the next, with their history lines, as `convert --to ash` writes one.
func writeChain(t *testing.T, dir string, n int) {
	t.Helper()
	write := func(name string, line func(i int) string, head string) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		if head != "" {
			fmt.Fprintln(w, head)
		}
		for i := 0; i < n; i++ {
			fmt.Fprintln(w, line(i))
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	id := func(i int) string { return spell.UUID(fmt.Sprint(i)) }
	write(ContextFile, func(i int) string {
		parent := ""
		if i > 0 {
			parent = `,"parent_id":"` + id(i-1) + `"`
		}
		return `{"type":"message","id":"` + id(i) + `","role":"user","content":"m` + fmt.Sprint(i) + `","created_at":"2026-11-21T04:24:24+00:00","token_count":null` + parent + `}`
	}, `{"type":"session","version":"2","id":"s","created_at":"2026-11-21T04:24:24+00:00","provider":"cli","user_id":null,"chat_id":"s"}`)
	write(HistoryFile, func(i int) string {
		return `{"id":"` + id(i) + `","role":"user","content":"m` + fmt.Sprint(i) + `","created_at":"2026-11-21T04:24:24+00:00"}`
	}, "")
}

// The checks across lines keep a few words per message, not its id, path
// and rule names several times over: a session of a million messages must
// validate (and be converted to, which validates the output) well under
// 1 GiB. Each message here has a parent and a history line, the most the
// checker keeps for one: about 290 bytes a message, where it kept 615.
func TestValidateMemory(t *testing.T) {
	n := 40000
	if testing.Short() {
		n = 10000
	}
	dir := t.TempDir()
	writeChain(t, dir, n)
	// the schemas compile once, on first use: not part of what is measured
	warm := t.TempDir()
	writeChain(t, warm, 2)
	check(t, warm)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c := check(t, dir)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(c)
	if fs := c.rep.Findings(); len(fs) != 0 {
		t.Fatalf("findings on a valid session: %v", fs[:min(3, len(fs))])
	}
	if len(c.messages) != n {
		t.Fatalf("%d messages kept, want %d", len(c.messages), n)
	}
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if bound := int64(400 * n); grown > bound {
		t.Errorf("after validating %d messages the heap had grown by %d bytes: more than 400 bytes a message", n, grown)
	}
	t.Logf("heap grown by %d bytes (%d a message)", grown, grown/int64(n))
}

// check runs the checks of a session's context.jsonl and history.jsonl and
// returns the checker, with all it keeps.
func check(t *testing.T, dir string) *checker {
	t.Helper()
	c := &checker{dir: dir, rep: &report.Report{}, version: Current, entryIDs: map[string]loc{}, parents: map[string]link{}, messages: map[string]msgInfo{}, subagents: map[string]bool{}}
	for _, f := range []struct {
		name string
		kind fileKind
	}{{ContextFile, kindContext}, {HistoryFile, kindHistory}} {
		if err := c.jsonl(filepath.Join(dir, f.name), f.kind, format.ValidateOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
	}
	c.resolve()
	return c
}
