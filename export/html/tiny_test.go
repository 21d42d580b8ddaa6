package html_test

import (
	"fmt"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/internal/testkit/heapwatch"
	"io"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/session"
)

// TestTinyEntriesMemory: what a page keeps per entry (its skeleton, the
// tree's index, the path) stays small, so a million tiny entries fit in
// 1 GiB: after a session of tiny messages, generated as it is read, the
// page's transcript holds less than 400 bytes an entry (450 before the
// skeleton shared its strings and the tree's index lost its maps).
func TestTinyEntriesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 300,000 entries")
	}
	const n = 300000
	i, parent := 0, ""
	next := func() (*session.Entry, error) {
		if i == n {
			return nil, io.EOF
		}
		id := fmt.Sprintf("%08x", i)
		e := &session.Entry{Kind: session.KindMessage, Type: "message", ID: id, ParentID: parent,
			Time:    session.Time{T: time.Date(2026, 11, 21, 4, 24, 24, 0, time.UTC), Raw: "2026-11-21T04:24:24Z"},
			Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: fmt.Sprintf("m%d", i)}}}}
		parent = id
		i++
		return e, nil
	}
	defer debug.SetGCPercent(debug.SetGCPercent(50)) // as export does
	var tr *transcript.Transcript
	var err error
	grew, before := heapwatch.Growth(func() { tr, err = html.Stream(io.Discard, session.Meta{ID: "tiny"}, next, "") })
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	kept := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d entries: heap grew by at most %d bytes, %d an entry; %d bytes an entry kept at the end", n, grew, grew/n, kept/n)
	if len(tr.Path) != n || tr.Title() != "m0" {
		t.Errorf("path of %d entries, title %q", len(tr.Path), tr.Title())
	}
	// the peak is the kept part plus the collector's slack (half of it at
	// GOGC 50); what is kept is deterministic
	if kept/n > 400 {
		t.Errorf("the page keeps %d bytes an entry, more than 400", kept/n)
	}
	runtime.KeepAlive(tr)
}
