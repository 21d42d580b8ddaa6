package opencode

import (
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// genSession reads as a flat session of n user messages, made as they are
// read; mid, when set, runs when half of them have been read.
type genSession struct {
	n, i int
	meta session.Meta
	mid  func()
}

func newGenSession(n int, mid func()) *genSession {
	return &genSession{n: n, mid: mid, meta: session.Meta{ID: "s", Cwd: "/", Created: session.FromMillis(1795235500000), Source: session.Source{Origin: "flat"}}}
}

func (g *genSession) Meta() *session.Meta { return &g.meta }

func (g *genSession) Next() (*session.Entry, error) {
	if g.i == g.n {
		return nil, io.EOF
	}
	if g.i == g.n/2 && g.mid != nil {
		g.mid()
	}
	e := &session.Entry{Kind: session.KindMessage, ID: fmt.Sprintf("%08x", g.i), Time: session.FromMillis(1795235500000), Source: session.Source{Origin: "flat"},
		Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: fmt.Sprintf("m%d", g.i)}}}}
	if g.i > 0 {
		e.ParentID = fmt.Sprintf("%08x", g.i-1)
	}
	g.i++
	return e, nil
}

func (g *genSession) Close() error { return nil }

// TestWriteMemory bounds what the tree writer keeps of each message it
// has written (to undo them if the session is refused part way): the heap
// grown halfway through a session of 4n messages, less that of one of n,
// over the 1.5n messages between. A list of every path written and a map
// of every directory kept about 300 bytes a message.
func TestWriteMemory(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 500
	}
	grown := func(n int) int64 {
		var before, mid runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		// The session is read more than once (its results, its tree, then
		// its entries as they are written): the last pass halfway is the
		// writer's.
		halfway := func() { runtime.GC(); runtime.ReadMemStats(&mid) }
		reopen := func() (session.Reader, error) { return newGenSession(n, halfway), nil }
		opt := format.WriteOptions{Options: format.OptionValues{OptProject: "global"}, Reopen: reopen}
		r := newGenSession(n, halfway)
		out := t.TempDir()
		if _, err := convert.Write(Format{}, r, out, opt, nil); err != nil {
			t.Fatal(err)
		}
		if got := len(treeFiles(t, out)); got != 2*n+2 {
			t.Fatalf("wrote %d files, want %d", got, 2*n+2)
		}
		return int64(mid.HeapAlloc) - int64(before.HeapAlloc)
	}
	grown(10) // the schemas and tables made once
	small, large := grown(n), grown(4*n)
	per := (large - small) / int64(3*n/2)
	t.Logf("heap grown by %d bytes halfway through %d messages, %d through %d: %d a message", small, n, large, 4*n, per)
	if per > 150 {
		t.Errorf("the writer holds %d bytes a message written; want at most 150", per)
	}
}
