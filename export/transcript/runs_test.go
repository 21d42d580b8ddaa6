package transcript

import (
	"testing"

	"github.com/sesstool/sesstool/session"
)

// A sub-agent run follows the entry that started it, once; the path itself
// is left as it was.
func TestWithRuns(t *testing.T) {
	msg := func(id, parent, side string) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Sidechain: side,
			Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: id}}}}
	}
	start := &session.Entry{Kind: session.KindSubagent, ID: "s", ParentID: "a", Subagent: &session.Subagent{ID: "run"}}
	s := &session.Session{Entries: []*session.Entry{
		msg("a", "", ""), start, msg("r1", "", "run"), msg("r2", "r1", "run"), msg("b", "s", ""), msg("x", "", "other"),
	}}
	tr, err := New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tr.WithRuns() {
		got = append(got, e.ID)
	}
	if want := "a s r1 r2 b"; join(got) != want {
		t.Errorf("WithRuns = %s, want %s", join(got), want)
	}
	if len(tr.Path) != 3 {
		t.Errorf("Path has %d entries, want the 3 of the main conversation", len(tr.Path))
	}
}

func join(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
