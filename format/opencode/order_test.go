package opencode

import (
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// OpenCode orders a session's messages by their time. A message of
// another layout stamped before the one it follows (a prompt Claude Code
// queued while a tool ran, written with its earlier time) takes that one's
// time, so OpenCode reads the messages in the source's order; that is
// counted. Read back, the order is the source's.
func TestWriteKeepsOrder(t *testing.T) {
	user := func(id, parent, text string, ms int64) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Source: session.Source{Origin: "claude"}, Time: session.FromMillis(ms),
			Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: text}}}}
	}
	s := &session.Session{Meta: session.Meta{ID: "s", Cwd: "/tmp", Source: session.Source{Origin: "claude"}}, Entries: []*session.Entry{
		user("a", "", "first", 1795235500000),
		user("b", "a", "interrupted", 1795235500733),
		user("c", "b", "queued earlier", 1795235500715),
		user("d", "c", "last", 1795235500800),
	}}
	lost := &loss.Counter{}
	out := t.TempDir()
	if _, err := convert.Write(Format{}, &session.SliceReader{S: s}, out, format.WriteOptions{}, lost); err != nil {
		t.Fatal(err)
	}
	refs, err := Format{}.Sessions(out)
	if err != nil || len(refs) != 1 {
		t.Fatalf("%v %v", refs, err)
	}
	var got []string
	for _, e := range readAll(t, refs[0]).Entries {
		got = append(got, e.Message.Text())
	}
	want := []string{"first", "interrupted", "queued earlier", "last"}
	if len(got) != len(want) {
		t.Fatalf("read back %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("read back %q, want %q", got, want)
		}
	}
	n := 0
	for _, it := range lost.Items() {
		if it.Kind == loss.Time {
			n += it.Count
		}
	}
	if n != 1 {
		t.Errorf("%d times counted as converted, want 1: %v", n, lost.Items())
	}
}
