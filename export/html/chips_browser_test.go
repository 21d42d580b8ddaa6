package html_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	"github.com/sesstool/sesstool/session"
)

// TestBrowserChips: in Chromium, injected text is a chip in its message
// (a long one folded under its tag), and the User filter keeps the prompts
// the user wrote, not a message of injected text only.
func TestBrowserChips(t *testing.T) {
	text := func(s string) []session.Block { return []session.Block{{Type: session.BlockText, Text: s}} }
	s := &session.Session{Meta: session.Meta{ID: "chips"}, Entries: []*session.Entry{
		{Kind: session.KindMessage, ID: "i", Message: &session.Message{Role: session.RoleUser,
			Content: text("<ide_opened_file>The user opened the file a.go in the IDE.</ide_opened_file>")}},
		{Kind: session.KindMessage, ID: "u", ParentID: "i", Message: &session.Message{Role: session.RoleUser,
			Content: text("why is it slow?\n<system-reminder>\nline one\nline two\n</system-reminder>")}},
		{Kind: session.KindMessage, ID: "a", ParentID: "u", Message: &session.Message{Role: session.RoleAssistant, Content: text("Because.")}},
		{Kind: session.KindMessage, ID: "n", ParentID: "a", Message: &session.Message{Role: session.RoleUser,
			Content: text("<task-notification><task-id>b0</task-id></task-notification>")}},
	}}
	b := browsertest.New(t)
	page, _ := writePage(t, s, "")
	b.Open(t, page)
	var got string
	b.Eval(t, `[...document.querySelectorAll('#msgs .chip')].map((c) => c.tagName + ':' + c.querySelector('.chip-tag').textContent).join(' ')`, &got)
	if want := "SPAN:ide_opened_file DETAILS:system-reminder SPAN:task-notification"; got != want {
		t.Errorf("chips %q, want %q", got, want)
	}
	var prose string
	b.Eval(t, `document.querySelector('#u .md').textContent.trim()`, &prose)
	if prose != "why is it slow?" {
		t.Errorf("u's prose is %q", prose)
	}
	var all string
	b.Eval(t, `[...document.querySelectorAll('#tree .row')].map((r) => r.textContent).join(' | ')`, &all)
	if strings.Contains(all, "<") || !strings.Contains(all, "[ide_opened_file]") || !strings.Contains(all, "[task-notification]") {
		t.Errorf("the tree's rows say %q: injected text should be named by its tag", all)
	}
	var rows string
	b.Do(t, chromedp.Click(chromedp.CSS(`#filters button[data-f="user"]`)))
	b.Eval(t, `[...document.querySelectorAll('#tree .row')].map((r) => r.textContent).join(' | ')`, &rows)
	if strings.Count(rows, " | ") != 0 || !strings.Contains(rows, "why is it slow?") {
		t.Errorf("the User filter shows %q, want only the prompt", rows)
	}
	b.Clean(t, page)
}
