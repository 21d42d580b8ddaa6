package codex_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/codex"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// TestRealWorld: the rollouts Codex 0.104-0.135 and the early Rust CLI
// wrote (../shared/real-world/codex) validate with no error, are read
// whole, and written back as Codex give the same bytes, a CRLF line
// ending included (the pre-wrapper file has them).
func TestRealWorld(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(shared.Dir(), "real-world", "codex", "*.jsonl"))
	if len(files) < 8 {
		peers.Need(t, "the real Codex rollouts are not in "+filepath.Join(shared.Dir(), "real-world", "codex"))
	}
	f := codex.Format{}
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) {
			if !f.Detect(p) {
				t.Fatal("not detected as codex")
			}
			rep := &report.Report{}
			if err := f.Validate(p, rep, format.ValidateOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, fd := range rep.Findings() {
				if fd.Severity == report.Error {
					t.Errorf("%v", fd)
				}
			}
			r, err := f.Open(format.Ref{Path: p})
			if err != nil {
				t.Fatal(err)
			}
			s, err := session.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Entries) < 9 || s.Meta.ID == "" {
				t.Fatalf("read %d entries, id %q", len(s.Entries), s.Meta.ID)
			}
			var out bytes.Buffer
			if err := f.WriteTo(&out, &session.SliceReader{S: s}, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if want, _ := os.ReadFile(p); !bytes.Equal(out.Bytes(), want) {
				t.Errorf("codex -> codex is not the same bytes (%d, want %d)", out.Len(), len(want))
			}
		})
	}
}
