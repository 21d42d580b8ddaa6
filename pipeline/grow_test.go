package pipeline

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	pitree "github.com/sesstool/sesstool/format/tree"
	"github.com/sesstool/sesstool/session"
)

// A session file its agent is still writing: a line appended (here cut
// off mid-write) after the run found the file is read by neither the
// validation nor the reader, whether the validation ran first or runs
// alongside, so the run never takes a line its validation did not see.
func TestGrowingFileReadAsFound(t *testing.T) {
	const found = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-06T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
`
	const appended = `{"type":"message","id":"u2","parentId":"u1","timestamp":"2026-01-06T10:00:02.000Z","message":{"role":"user","content":"half writ`
	for _, alongside := range []bool{false, true} {
		p := filepath.Join(t.TempDir(), "live.jsonl")
		if err := os.WriteFile(p, []byte(found), 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := Gather(p, GatherOptions{Forced: pitree.Format{}, Alongside: alongside, Log: io.Discard})
		if err != nil {
			t.Fatalf("alongside %v: gather: %v", alongside, err)
		}
		if g := in.Grown(); len(g) != 0 {
			t.Errorf("alongside %v: grown %+v before anything was appended", alongside, g)
		}
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(appended)
		f.Close()
		if g := in.Grown(); len(g) != 1 || g[0].Rule != RuleGrew || g[0].Path != p || g[0].Named {
			t.Errorf("alongside %v: grown %+v, want one warning naming %s", alongside, g, p)
		}
		if err := in.Check(); err != nil {
			t.Errorf("alongside %v: the validation read the line appended after the file was found: %v", alongside, err)
		}
		r, err := in.Jobs[0].Format.Open(in.Jobs[0].Ref)
		if err != nil {
			t.Fatal(err)
		}
		s, err := session.ReadAll(r)
		if err != nil {
			t.Errorf("alongside %v: the reader read the line appended after the file was found: %v", alongside, err)
			continue
		}
		if len(s.Entries) != 1 || s.Entries[0].ID != "u1" {
			t.Errorf("alongside %v: read %d entries, want u1 alone", alongside, len(s.Entries))
		}
	}
}
