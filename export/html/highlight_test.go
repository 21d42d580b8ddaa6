package html_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	"github.com/sesstool/sesstool/session"
)

// codeSession has code in a Markdown fence, in a file read by a tool (long,
// so collapsed), and hostile code that highlight.js must keep as text.
func codeSession() *session.Session {
	long := "package main\n\nimport \"fmt\"\n\nfunc main() {\n" + strings.Repeat("\tfmt.Println(\"hi\")\n", 30) + "}\n"
	args, _ := json.Marshal(map[string]string{"path": "src/main.go"})
	msg := func(id, parent string, m *session.Message) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, Type: "message", ID: id, ParentID: parent, Message: m}
	}
	text := func(s string) []session.Block { return []session.Block{{Type: session.BlockText, Text: s}} }
	return &session.Session{Meta: session.Meta{ID: "code"}, Entries: []*session.Entry{
		msg("u1", "", &session.Message{Role: session.RoleUser, Content: text("Show me:\n\n```go\nfunc answer() int { return 42 }\n```\n\n" +
			"```html\n<img src=x onerror=\"window.__pwned3 = 1\"><script>window.__pwned4 = 1</script>\n```\n\n" +
			"```js\n</script><script>window.__pwned5 = 1</script>\n```\n\n```nosuchlang\nplain words\n```\n")}),
		msg("a1", "u1", &session.Message{Role: session.RoleAssistant, Content: []session.Block{
			{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "read", Arguments: args}}}),
		msg("r1", "a1", &session.Message{Role: session.RoleTool, ToolCallID: "c1", ToolName: "read", Content: text(long)}),
	}}
}

// TestHighlightInBrowser checks that code is coloured in the browser as it
// comes into view, a collapsed block once it is opened, an unknown language
// stays plain, and hostile code stays text after colouring.
func TestHighlightInBrowser(t *testing.T) {
	b := browsertest.New(t)
	page, _ := writePage(t, codeSession(), "")
	b.Open(t, page)
	// bring every block into view, one after the other
	b.Eval(t, `(() => { for (const p of document.querySelectorAll('#msgs pre[data-lang]')) p.scrollIntoView(); window.scrollTo(0, 0); return true; })()`, new(bool))
	b.Wait(t, `document.querySelector('pre[data-lang=go] code.hljs') !== null && document.querySelector('pre[data-lang=html] code.hljs') !== null`)
	var n int
	b.Eval(t, `document.querySelectorAll('pre[data-lang=go] code.hljs .hljs-keyword').length`, &n)
	if n == 0 {
		t.Error("the Go block has no keyword coloured")
	}
	var plain string
	b.Eval(t, `(() => { const p = document.querySelector('pre[data-lang=nosuchlang] code'); return p.className + '|' + p.innerHTML; })()`, &plain)
	if plain != "|plain words\n" {
		t.Errorf("unknown language block = %q, want it untouched", plain)
	}
	// the read result is folded to a preview: it is coloured when it comes
	// into view, with the whole file's text
	b.Eval(t, `(() => { document.querySelector('.clip pre[data-lang=go]').scrollIntoView(); return true; })()`, new(bool))
	b.Wait(t, `document.querySelector('.clip pre[data-lang=go] code.hljs') !== null`)
	var text string
	b.Eval(t, `document.querySelector('.clip pre code').textContent`, &text)
	if !strings.Contains(text, `fmt.Println("hi")`) || !strings.HasPrefix(text, "package main") {
		t.Errorf("the coloured file lost its text: %.200q", text)
	}
	var pwned string
	b.Eval(t, `[window.__pwned3, window.__pwned4, window.__pwned5].map(String).join(' ')`, &pwned)
	if pwned != "undefined undefined undefined" {
		t.Errorf("code in a block ran: %s", pwned)
	}
	b.Eval(t, `document.querySelectorAll('#msgs script, #msgs img, #msgs [onerror]').length`, &n)
	if n != 0 {
		t.Errorf("%d live script/img/onerror elements after colouring", n)
	}
	if !strings.Contains(b.MsgsText(t), `<img src=x onerror="window.__pwned3 = 1">`) {
		t.Error("the hostile HTML is not shown as text")
	}
	b.Clean(t, page)
}
