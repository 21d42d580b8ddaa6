package opencode

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sesstool/sesstool/report"
)

const memSession = "ses_e03a6d73fffeOsJQ3mXfn3OcjF"

// genTree writes a storage tree of one session of n user messages, each
// with one text part, as convert --to opencode writes a flat session.
func genTree(t testing.TB, root string, n int) {
	t.Helper()
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "migration"), "2")
	write(filepath.Join(root, "session", "global", memSession+".json"), `{"id":"`+memSession+`","slug":"s","version":"1.1.34","projectID":"global","directory":"/","title":"t","time":{"created":1,"updated":1}}`)
	for i := range n {
		mid := fmt.Sprintf("msg_%012xAbCdEfGhIjKlMn", i+1)
		pid := fmt.Sprintf("prt_%012xAbCdEfGhIjKlMn", i+1)
		write(filepath.Join(root, "message", memSession, mid+".json"), `{"id":"`+mid+`","sessionID":"`+memSession+`","role":"user","time":{"created":1},"agent":"build","model":{"providerID":"p","modelID":"m"}}`)
		write(filepath.Join(root, "part", mid, pid+".json"), `{"id":"`+pid+`","sessionID":"`+memSession+`","messageID":"`+mid+`","type":"text","text":"m"}`)
	}
}

// TestValidateTreeMemory bounds what the tree validator keeps of each
// message (and its part) until the rules across files run: the heap it
// holds after reading a store of 4n messages, less that after n, over 3n.
// Maps of ids and locations kept over 1 KiB a message (a million messages
// took 1.7 GB to convert).
func TestValidateTreeMemory(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 500
	}
	held := func(n int) int64 {
		root := t.TempDir()
		genTree(t, root, n)
		rep := &report.Report{}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		c := newChecker(rep)
		c.tree(root, 2)
		runtime.GC()
		runtime.ReadMemStats(&after)
		c.finish()
		if fs := rep.Findings(); len(fs) != 0 {
			t.Fatalf("findings on a valid store: %v", fs[:min(3, len(fs))])
		}
		if c.entries != n || c.files != 2*n+2 {
			t.Fatalf("%d files, %d entries; want %d, %d", c.files, c.entries, 2*n+2, n)
		}
		runtime.KeepAlive(c)
		return int64(after.HeapAlloc) - int64(before.HeapAlloc)
	}
	held(10) // the schemas compile once, on first use: not part of what is measured
	small, large := held(n), held(4*n)
	per := (large - small) / int64(3*n)
	t.Logf("held %d bytes after %d messages, %d after %d: %d a message", small, n, large, 4*n, per)
	if per > 250 {
		t.Errorf("the validator holds %d bytes a message (and its part) until the store is read; want at most 250", per)
	}
}
