package convtree

import (
	"strings"
	"testing"

	"github.com/sesstool/sesstool/session"
)

func join(xs []string) string { return strings.Join(xs, " ") }

// A layout that links messages to messages only (ash) hangs a tool result or
// compaction off a path message: part of the conversation, not a branch. A
// layout that links every entry (pi) reads the same shape as a branch the
// user left. The rule is the session's (Meta.MessageLinks), never the
// entries' origin.
func TestActivePathAttachments(t *testing.T) {
	for _, c := range []struct {
		messageLinks bool
		path         string
		branches     int
	}{
		{true, "u a r c u2 a2", 2}, // x is abandoned
		{false, "u a u2 a2", 4},    // r, c and x are abandoned
	} {
		msg := func(id, parent string, role session.Role) *session.Entry {
			return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Message: &session.Message{Role: role}, Source: session.Source{Origin: "ash"}}
		}
		comp := &session.Entry{Kind: session.KindCompaction, ID: "c", ParentID: "a", Source: session.Source{Origin: "ash"}}
		entries := []*session.Entry{msg("u", "", "user"), msg("a", "u", "assistant"), msg("r", "a", "tool"), comp,
			msg("x", "a", "user"), msg("u2", "a", "user"), msg("a2", "u2", "assistant")}
		path, branches := ActivePath(entries, c.messageLinks)
		var ids []string
		for _, p := range path {
			ids = append(ids, p.ID)
		}
		if got := join(ids); got != c.path || branches != c.branches {
			t.Errorf("message links %v: path = %s, %d branches; want %s and %d", c.messageLinks, got, branches, c.path, c.branches)
		}
		cv := NewConversation(entries, c.messageLinks)
		if cv.Branches != c.branches || len(cv.Path()) != len(path) {
			t.Errorf("message links %v: Conversation has %d branches and a path of %d, ActivePath %d and %d", c.messageLinks, cv.Branches, len(cv.Path()), c.branches, len(path))
		}
	}
}

// Index reads the rule from the session it indexes.
func TestIndexTakesTheSessionsRule(t *testing.T) {
	for _, links := range []bool{true, false} {
		msg := func(id, parent string, role session.Role) *session.Entry {
			return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Message: &session.Message{Role: role}}
		}
		s := &session.Session{Meta: session.Meta{MessageLinks: links},
			Entries: []*session.Entry{msg("u", "", "user"), msg("a", "u", "assistant"), msg("r", "a", "tool"), msg("u2", "a", "user")}}
		x, _, err := Index(&session.SliceReader{S: s}, nil, (*PathIndex).Add)
		if err != nil {
			t.Fatal(err)
		}
		want := 2 // r is a branch left behind
		if links {
			want = 1 // r is on the line: u2 continues after it
		}
		if got := x.Plan(); got != want {
			t.Errorf("message links %v: %d branches, want %d", links, got, want)
		}
	}
}

func TestChain(t *testing.T) {
	msg := func(id, parent string, role session.Role) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Message: &session.Message{Role: role}}
	}
	// ash: results and a compaction hang off the assistant message; the next
	// user message names the assistant; a later message names no parent.
	entries := []*session.Entry{msg("u", "", "user"), msg("a", "u", "assistant"), msg("r1", "a", "tool"), msg("r2", "a", "tool"),
		{Kind: session.KindCompaction, ID: "c", ParentID: "a"}, msg("u2", "a", "user"), msg("u3", "", "user")}
	var c Chain
	var got []string
	for _, e := range entries {
		got = append(got, e.ID+"<"+c.Parent(e))
	}
	if s := join(got); s != "u< a<u r1<a r2<r1 c<r2 u2<c u3<u2" {
		t.Errorf("chain = %s", s)
	}
}
