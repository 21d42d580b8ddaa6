package markdown

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

// Text an agent or an IDE puts into a user message is a labelled chip
// (a fold when long), never prose; a message of it only is headed as
// injected and is no prompt: no tool-call count under it.
func TestInjectedChips(t *testing.T) {
	text := func(s string) []session.Block { return []session.Block{{Type: session.BlockText, Text: s}} }
	s := &session.Session{Meta: session.Meta{ID: "s"}, Entries: []*session.Entry{
		{Kind: session.KindMessage, ID: "i", Message: &session.Message{Role: session.RoleUser,
			Content: text("<ide_opened_file>The user opened <b>a.go</b></ide_opened_file>")}},
		{Kind: session.KindMessage, ID: "u", ParentID: "i", Message: &session.Message{Role: session.RoleUser,
			Content: text("why is it slow?\n<system-reminder>\nline one\nline two\n</system-reminder>")}},
		{Kind: session.KindMessage, ID: "a", ParentID: "u", Message: &session.Message{Role: session.RoleAssistant,
			Content: []session.Block{{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "bash", Arguments: []byte(`{"command":"ls"}`)}}}},
		{Kind: session.KindMessage, ID: "n", ParentID: "a", Message: &session.Message{Role: session.RoleUser,
			Content: text("<task-notification><task-id>b0</task-id></task-notification>")}},
	}}
	tr, err := transcript.New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteTools(&b, tr, ToolsNone); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"### User · injected\n\n_injected_ `ide_opened_file` The user opened &lt;b\\>a.go&lt;/b\\>\n\n",
		"### User · 1 tool call\n\nwhy is it slow?\n\n<details>\n<summary>injected: system-reminder</summary>\n\n```\nline one\nline two\n```\n",
		"### User · injected\n\n_injected_ `task-notification` &lt;task-id\\>b0&lt;/task-id\\>\n\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Count(md, "### User") != 3 {
		t.Errorf("want 3 user sections:\n%s", md)
	}
	if strings.HasPrefix(md, "# &lt;") || !strings.HasPrefix(md, "# why is it slow?") {
		t.Errorf("title: %q", strings.SplitN(md, "\n", 2)[0])
	}
}
