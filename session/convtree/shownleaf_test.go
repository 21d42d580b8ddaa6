package convtree

import (
	"testing"

	"github.com/sesstool/sesstool/session"
)

// TestShownLeaf: the shown leaf is the last entry of the active path that
// is conversation, never a bookkeeping record nor a sub-agent run's start
// or end, while the leaf (where the path ends, what convert keeps) stays
// the last main entry.
func TestShownLeaf(t *testing.T) {
	const origin = "shownleaf-test"
	session.DeclareBookkeeping(origin, "last-prompt", "progress")
	msg := func(id, parent string) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Source: session.Source{Origin: origin},
			Message: &session.Message{Role: session.RoleUser}}
	}
	rec := func(id, parent, typ string) *session.Entry {
		return &session.Entry{Kind: session.KindOther, Type: typ, ID: id, ParentID: parent, Source: session.Source{Origin: origin}}
	}
	run := func(id, parent string, k session.Kind) *session.Entry {
		return &session.Entry{Kind: k, ID: id, ParentID: parent, Source: session.Source{Origin: origin}}
	}
	side := func(id, parent string) *session.Entry {
		e := msg(id, parent)
		e.Sidechain = "agent-x"
		return e
	}
	for _, tc := range []struct {
		name        string
		entries     []*session.Entry
		leaf, shown string
	}{
		{"a message ends it", []*session.Entry{msg("a", ""), msg("b", "a")}, "b", "b"},
		{"a last-prompt line after it", []*session.Entry{msg("a", ""), msg("b", "a"), rec("#3", "b", "last-prompt")}, "#3", "b"},
		{"progress lines after it", []*session.Entry{msg("a", ""), msg("b", "a"), rec("p1", "b", "progress"), rec("p2", "p1", "progress")}, "p2", "b"},
		{"a record that is not bookkeeping", []*session.Entry{msg("a", ""), rec("s", "a", "system"), rec("p", "s", "progress")}, "p", "s"},
		{"a run read after the last line", []*session.Entry{msg("a", ""), msg("b", "a"), run("subagent:x", "b", session.KindSubagent),
			side("x1", ""), side("x2", "x1")}, "subagent:x", "b"},
		{"a run's end", []*session.Entry{msg("a", ""), run("s", "a", session.KindSubagent), run("e", "s", session.KindSubagentEnd)}, "e", "a"},
		{"nothing but bookkeeping", []*session.Entry{rec("p1", "", "progress"), rec("p2", "p1", "progress")}, "p2", "p2"},
		{"a branch: the path's own", []*session.Entry{msg("a", ""), msg("b", "a"), msg("c", "a"), rec("#4", "c", "last-prompt")}, "#4", "c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var x PathIndex
			for _, e := range tc.entries {
				x.Add(e)
			}
			x.Plan()
			if got := x.LeafID(); got != tc.leaf {
				t.Errorf("leaf %q, want %q", got, tc.leaf)
			}
			if got := x.ShownID(); got != tc.shown {
				t.Errorf("shown leaf %q, want %q", got, tc.shown)
			}
			c := NewConversation(tc.entries, false)
			if c.Shown == nil || c.Shown.ID != tc.shown || c.Entries[c.ShownAt()] != c.Shown {
				t.Errorf("Conversation.Shown = %v, want %q", c.Shown, tc.shown)
			}
		})
	}
}
