package html_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	"github.com/sesstool/sesstool/session"
)

// TestTailInBrowser: records after the conversation's last entry (here a
// sub-agent's start and end cards) are on the active path but not shown:
// the page ends at the shown leaf, and the tree marks their rows as on the
// path (act) without making either of them the leaf.
func TestTailInBrowser(t *testing.T) {
	b := browsertest.New(t)
	msg := func(id, parent string, role session.Role) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent,
			Message: &session.Message{Role: role, Content: []session.Block{{Type: session.BlockText, Text: "text of " + id}}}}
	}
	s := &session.Session{Meta: session.Meta{ID: "tail"}, Entries: []*session.Entry{
		msg("u", "", session.RoleUser),
		msg("a", "u", session.RoleAssistant),
		{Kind: session.KindSubagent, ID: "s", ParentID: "a", Subagent: &session.Subagent{ID: "run", AgentType: "Explore"}},
		{Kind: session.KindSubagentEnd, ID: "e", ParentID: "s", Subagent: &session.Subagent{ID: "run"}},
	}}
	page, tr := writePage(t, s, "")
	if tr.Leaf == nil || tr.Leaf.ID != "a" || len(tr.Tail) != 2 {
		t.Fatalf("shown leaf %v with a tail of %d; want a and the 2 cards", tr.Leaf, len(tr.Tail))
	}
	b.Open(t, page)
	b.RenderAll(t)
	var out string
	b.Eval(t, `JSON.stringify({
	  shown: [...document.querySelectorAll('#msgs article.msg')].map(a => +a.dataset.i),
	  rows: Object.fromEntries([...document.querySelectorAll('#tree .row')].map(r => [r.dataset.i, r.className]))})`, &out)
	var got struct {
		Shown []int
		Rows  map[string]string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Shown) != 2 || got.Shown[0] != 0 || got.Shown[1] != 1 {
		t.Errorf("the page shows entries %v, want [0 1]: the conversation up to the shown leaf", got.Shown)
	}
	for i, want := range []struct{ act, leaf bool }{{true, false}, {true, true}, {true, false}, {true, false}} {
		cls, ok := got.Rows[strconv.Itoa(i)]
		if !ok {
			t.Errorf("entry %d has no row in the tree (rows: %v)", i, got.Rows)
			continue
		}
		if act, leaf := hasClass(cls, "act"), hasClass(cls, "leaf"); act != want.act || leaf != want.leaf {
			t.Errorf("entry %d's row is %q: on the path %v, leaf %v; want %v, %v", i, cls, act, leaf, want.act, want.leaf)
		}
	}
	b.Clean(t, page)
}

func hasClass(cls, c string) bool { return slices.Contains(strings.Fields(cls), c) }
