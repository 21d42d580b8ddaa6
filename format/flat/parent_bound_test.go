package flat

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
)

// A fork's parent_session_path is named by the file: a parent that is one
// endless line (a sparse file of zeros) is refused at the line limit with
// a parent-unavailable warning, and what the check allocates stays far
// below the parent's size (before, the whole line was gathered: a 1 TB
// sparse parent took validate past 1.2 GiB before it was killed).
func TestForkParentLineBounded(t *testing.T) {
	dir := t.TempDir()
	parent := filepath.Join(dir, "parent.jsonl")
	const size = 512 << 20
	f, err := os.Create(parent)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	f.Close()
	fork := filepath.Join(dir, "fork.jsonl")
	os.WriteFile(fork, []byte(`{"type":"session","id":"f","version":1,"timestamp":"2026-11-21T04:24:25Z","cwd":"/"}
{"type":"branch","id":"bbbbbbb0","timestamp":"2026-11-21T04:24:25Z","parent_session_path":"parent.jsonl","fork_entry_id":"aaaaaaa2"}
`), 0o644)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rep := &report.Report{}
	if err := New().Validate(fork, rep, format.ValidateOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	fs := rep.Findings()
	if len(fs) != 1 || fs[0].Rule != "parent-unavailable" || !strings.Contains(fs[0].Message, "longer than") {
		t.Errorf("want one parent-unavailable warning naming the long line, got %v", fs)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > size*3/4 {
		t.Errorf("validating the fork allocated %d MiB for a %d MiB parent of one line; want under %d", grew>>20, size>>20, size*3/4>>20)
	}
}
