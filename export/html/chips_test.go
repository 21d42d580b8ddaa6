package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

// Text an agent or an IDE puts into a user message is a small chip
// labelled with its tag inside the message, never prose; a message of
// injected text only is no prompt: its node is not a user's, so the User
// filter leaves it out, and its card says it is injected.
func TestInjectedChips(t *testing.T) {
	text := func(s string) []session.Block { return []session.Block{{Type: session.BlockText, Text: s}} }
	s := &session.Session{Meta: session.Meta{ID: "s"}, Entries: []*session.Entry{
		{Kind: session.KindMessage, ID: "i", Message: &session.Message{Role: session.RoleUser,
			Content: text("<ide_opened_file>The user opened the file a.go in the IDE.</ide_opened_file>")}},
		{Kind: session.KindMessage, ID: "u", ParentID: "i", Message: &session.Message{Role: session.RoleUser,
			Content: text("why is it **slow**?\n<system-reminder>\nline one\nline two\n</system-reminder>")}},
		{Kind: session.KindMessage, ID: "n", ParentID: "u", Message: &session.Message{Role: session.RoleUser,
			Content: text("<task-notification><task-id>b0</task-id></task-notification>")}},
	}}
	tr, err := transcript.New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, tr); err != nil {
		t.Fatal(err)
	}
	_, nodes := decode(t, b.String())
	for _, tc := range []struct {
		i           int
		role, who   string
		has, hasNot []string
	}{
		{0, "injected", "user · injected", []string{`<span class="chip" title="added by the agent"><span class="chip-tag">ide_opened_file</span> The user opened the file a.go in the IDE.</span>`},
			[]string{`<div class="md">`}},
		{1, "user", ">user<", []string{`<strong>slow</strong>`, `<details class="chip" title="added by the agent"><summary><span class="chip-tag">system-reminder</span></summary><pre class="chip-text">line one` + "\n" + `line two</pre></details>`},
			[]string{"&lt;system-reminder"}},
		{2, "injected", "user · injected", []string{`<span class="chip-tag">task-notification</span>`}, []string{`<div class="md">`}},
	} {
		n := nodes[tc.i]
		if n.Role != tc.role || !n.Visible {
			t.Errorf("node %d: role %q (shown %v), want %q", tc.i, n.Role, n.Visible, tc.role)
		}
		for _, want := range append(tc.has, tc.who) {
			if !strings.Contains(n.HTML, want) {
				t.Errorf("node %d lacks %s:\n%s", tc.i, want, n.HTML)
			}
		}
		for _, bad := range tc.hasNot {
			if strings.Contains(n.HTML, bad) {
				t.Errorf("node %d has %s:\n%s", tc.i, bad, n.HTML)
			}
		}
	}
}

// A record its layout shows as a note is named by its note in the tree,
// not by its type.
func TestNoteSnippet(t *testing.T) {
	session.DeclareNote("note-snippet-test", "system", func(session.Custom) string { return "turn took 3s" })
	e := &session.Entry{Kind: session.KindOther, Type: "system", Source: session.Source{Origin: "note-snippet-test"},
		Custom: &session.Custom{CustomType: "system", Data: []byte(`{"subtype":"turn_duration"}`)}}
	if got := snippet(e, &argMemo{}); got != "turn took 3s" {
		t.Errorf("snippet %q, want the note", got)
	}
}
