package convert

import (
	"testing"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// TestAdaptMintsCallIDs: tool calls without an id (Codex's web searches)
// get one when adapted for another layout: non-empty, distinct in the
// session, the same on every run; a call with an id keeps it.
func TestAdaptMintsCallIDs(t *testing.T) {
	call := func(id string) session.Block {
		return session.Block{Type: session.BlockToolCall, ToolName: "web_search", ToolCallID: id}
	}
	entries := func() []*session.Entry {
		a := msg("a1", "", session.RoleAssistant)
		a.Message.Content = []session.Block{call(""), call("kept"), call("")}
		b := msg("a2", "a1", session.RoleAssistant)
		b.Message.Content = []session.Block{call("")}
		return []*session.Entry{a, b}
	}
	read := func() []string {
		src := &session.SliceReader{S: &session.Session{Meta: session.Meta{ID: "s1", Source: session.Source{Origin: "src"}}, Entries: entries()}}
		r, err := Adapt(src, nil, signing, "sg", &loss.Counter{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := session.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, e := range s.Entries {
			for _, b := range e.Message.Content {
				ids = append(ids, b.ToolCallID)
			}
		}
		return ids
	}
	ids := read()
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "" || seen[id] {
			t.Fatalf("ids %q: want every call named, no two alike", ids)
		}
		seen[id] = true
	}
	if ids[1] != "kept" {
		t.Errorf("a call's own id became %q", ids[1])
	}
	if again := read(); again[0] != ids[0] || again[3] != ids[3] {
		t.Errorf("minted %q, then %q: not the same on every run", ids, again)
	}
	// The source itself is not changed.
	if e := entries(); e[0].Message.Content[0].ToolCallID != "" {
		t.Fatal("the fixture changed")
	}
}
