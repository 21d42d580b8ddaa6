package html

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/format/tree"
	"github.com/sesstool/sesstool/internal/testkit/benchdata"
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

// BenchmarkStream reads and renders 8 MB of a real pi session replicated as
// export html does: the tree reader decoding ahead on every core, each
// entry rendered and deflated as it comes. MB/s are of the session file.
func BenchmarkStream(b *testing.B) {
	in := benchdata.TreeBytes(b, 8<<20, true)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := (tree.Format{}).OpenReader("bench", bytes.NewReader(in))
		if err != nil {
			b.Fatal(err)
		}
		r.(interface{ ReadAhead() }).ReadAhead()
		next := func() (*session.Entry, error) {
			e, err := r.Next()
			if e != nil {
				e.Raw = nil
			}
			return e, err
		}
		if _, err := Stream(io.Discard, *r.Meta(), next, ""); err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}
