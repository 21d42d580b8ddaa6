package html

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/format/tree"
	"github.com/sesstool/sesstool/internal/benchdata"
	"github.com/sesstool/sesstool/session"
)

// BenchmarkWrite renders a page from 8 MB of a real pi session replicated;
// MB/s are of the session file.
func BenchmarkWrite(b *testing.B) {
	in := benchdata.TreeBytes(b, 8<<20, true)
	r, err := (tree.Format{}).OpenReader("bench", bytes.NewReader(in))
	if err != nil {
		b.Fatal(err)
	}
	s := &session.Session{Meta: *r.Meta()}
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		s.Entries = append(s.Entries, e)
	}
	t, err := transcript.New(s, "")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, t); err != nil {
			b.Fatal(err)
		}
	}
}
