package command

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/heapwatch"
)

// manyRuns writes a Claude Code store holding the sub-agent fixture's
// session with n more sub-agent runs (the fixture's unnamed warm-up run,
// each with its own agent id and uuids), and returns the store.
func manyRuns(t *testing.T, n int) string {
	t.Helper()
	src := filepath.Dir(claudeRuns)
	store := filepath.Join(t.TempDir(), "claude")
	const sid = "7c0d9e8f-1a2b-4c3d-8e4f-5a6b7c8d9e0f"
	proj := filepath.Join(store, "projects", filepath.Base(src))
	subs := filepath.Join(proj, sid, "subagents")
	if err := os.MkdirAll(subs, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(claudeRuns)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, sid+".jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"agent-a9w0r1m.jsonl", "agent-e1f2a3b.jsonl", "agent-e1f2a3b.meta.json"} {
		b, err := os.ReadFile(filepath.Join(src, sid, "subagents", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(subs, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run, err := os.ReadFile(filepath.Join(src, sid, "subagents", "agent-a9w0r1m.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		id := fmt.Sprintf("z%06d", i)
		r := strings.NewReplacer(`"agentId":"a9w0r1m"`, `"agentId":"`+id+`"`,
			"00000000-0000-4000-8000-0000000002", fmt.Sprintf("%08x-0000-4000-8000-0000000002", i+1))
		if err := os.WriteFile(filepath.Join(subs, "agent-"+id+".jsonl"), []byte(r.Replace(string(run))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return store
}

// openFiles counts this process's open descriptors.
func openFiles(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	return len(ents)
}

// convert --to claude of a session with many sub-agent runs keeps a
// bounded number of files open and a bounded heap: it kept every sub-agent
// file open until the commit, a descriptor and about 90 KiB each (20,000
// failed with "too many open files", 15,000 took 1.4 GB). Run with the
// soft limit on descriptors at what is open now plus 64, for 600 runs
// (the fixture's two besides): the output holds every run, committed, and
// the heap grows by under 24 KiB a run (about 11 measured).
func TestConvertManySubagentsBounded(t *testing.T) {
	const runs, perRun = 600, 24 << 10
	store := manyRuns(t, runs)
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skip("no descriptor limit to set:", err)
	}
	low := lim
	low.Cur = uint64(openFiles(t) + 64)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skip("cannot lower the descriptor limit:", err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	out := filepath.Join(t.TempDir(), "out")
	env, _, stderr := testEnv("")
	var err error
	// The collector runs often, so that the heap measured is what is kept,
	// not garbage.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	grew, _ := heapwatch.Growth(func() {
		err = Convert(env, ConvertOptions{To: "claude", Out: out, Paths: []string{store}})
	})
	syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	t.Logf("heap grew by %d KiB for %d sub-agent runs", grew>>10, runs)
	if err != nil {
		t.Fatalf("convert: %v\n%s", err, clip(stderr.String()))
	}
	written, _ := filepath.Glob(filepath.Join(out, "projects", "*", "*", "subagents", "agent-*.jsonl"))
	if len(written) != runs+2 {
		t.Errorf("%d sub-agent files written, want %d", len(written), runs+2)
	}
	for _, p := range written {
		b, err := os.ReadFile(p)
		if err != nil || bytes.Count(b, []byte{'\n'}) < 2 {
			t.Errorf("%s: %d bytes (%v), want the run's lines", p, len(b), err)
			break
		}
	}
	if grew > runs*perRun {
		t.Errorf("heap grew by %d KiB for %d runs, want under %d KiB a run", grew>>10, runs, perRun>>10)
	}
}

func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}
