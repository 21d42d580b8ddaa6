package html_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/sesstool/sesstool/internal/testkit/heapwatch"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	"github.com/sesstool/sesstool/session"
)

var vocab = strings.Fields(`the parser file function return error value test build module package import string
buffer line token session branch message assistant user tool result output command edit write read path
directory config option flag version schema check valid invalid missing field index offset length count`)

// large builds a linear session of n user/assistant/tool turns with prose and
// code, and gives each entry a pi-like JSON line as Raw, so the session's
// size on disk is known.
func large(n int) (*session.Session, int64) {
	r := rand.New(rand.NewPCG(1, 2))
	prose := func(k int) string {
		var b strings.Builder
		for i := 0; i < k; i++ {
			b.WriteString(vocab[r.IntN(len(vocab))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	s := &session.Session{Meta: session.Meta{ID: "large", Title: "large"}}
	parent := ""
	add := func(m *session.Message) {
		id := fmt.Sprintf("e%06d", len(s.Entries))
		e := &session.Entry{Kind: session.KindMessage, Type: "message", ID: id, ParentID: parent, Message: m}
		raw, _ := json.Marshal(map[string]any{"type": "message", "id": id, "parentId": parent, "timestamp": "2026-01-01T00:00:00.000Z", "message": m})
		e.Raw = raw
		s.Entries = append(s.Entries, e)
		parent = id
	}
	for i := 0; i < n; i++ {
		add(&session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: prose(40)}}})
		args, _ := json.Marshal(map[string]string{"command": "grep -rn " + vocab[i%len(vocab)] + " ."})
		add(&session.Message{Role: session.RoleAssistant, Usage: &session.Usage{Input: int64(1000 + i), Output: 50},
			Content: []session.Block{{Type: session.BlockText, Text: prose(60) + "\n\n```go\nfunc f() error { return nil }\n```\n"},
				{Type: session.BlockToolCall, ToolCallID: fmt.Sprintf("c%d", i), ToolName: "bash", Arguments: args}}})
		add(&session.Message{Role: session.RoleTool, ToolCallID: fmt.Sprintf("c%d", i), ToolName: "bash",
			Content: []session.Block{{Type: session.BlockText, Text: strings.Repeat("src/"+vocab[i%len(vocab)]+".go:12: "+prose(8)+"\n", 10)}}})
	}
	add(&session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "the final xylophone question"}}})
	var size int64
	for _, e := range s.Entries {
		size += int64(len(e.Raw)) + 1
		e.Raw = nil // the export command drops source bytes as it reads
	}
	return s, size
}

// TestLargeSizeAndMemory checks that a page is no larger than its session
// (plus the fixed cost of the page's style and script) and that rendering
// allocates no more than a small multiple of the session's size at a time
// (plus constant buffers per core).
func TestLargeSizeAndMemory(t *testing.T) {
	s, size := large(3000)
	tr, err := transcript.New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	cw := &countWriter{}
	grew, _ := heapwatch.Growth(func() { err = html.Write(cw, tr) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("session %d bytes on disk, page %d bytes, heap grew by at most %d bytes while rendering", size, cw.n, grew)
	if cw.n > size {
		t.Errorf("page (%d bytes) is larger than the session (%d bytes)", cw.n, size)
	}
	// Rendering runs on every core, and each worker has constant buffers of
	// its own (a deflate compressor of 1.2 MB, a chunk's text): the bound is
	// 3x the session plus 2 MiB per core.
	perCore := int64(runtime.GOMAXPROCS(0)) * (2 << 20)
	if grew > 3*size+perCore {
		t.Errorf("rendering grew the heap by %d bytes, more than 3x the session's %d plus %d for %d cores", grew, size, perCore, runtime.GOMAXPROCS(0))
	}
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)

// TestLargeInBrowser opens a 6,000-message page (600 under -short): it
// must put only the cards near the view in the DOM, and the tree rows in
// the sidebar's view; a click on the tree's last row must render that
// entry's card, not every card before it; a search for a word of the last
// prompt must find it and show it without rendering the session; and
// printing must bring in every card.
func TestLargeInBrowser(t *testing.T) {
	turns := 2000
	if testing.Short() {
		turns = 200
	}
	s, _ := large(turns)
	tr, err := transcript.New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := html.Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "large.html")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b := browsertest.New(t)
	b.Open(t, p)
	cards := func() int {
		var n int
		b.Eval(t, `document.querySelectorAll('#msgs article.msg').length`, &n)
		return n
	}
	inView := func(sel string) bool {
		var ok bool
		b.Eval(t, fmt.Sprintf(`(() => { const a = document.querySelector(%q); if (!a) return false; const r = a.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; })()`, sel), &ok)
		return ok
	}
	n := cards()
	t.Logf("%d entries: %d messages in the DOM once drawn", len(s.Entries), n)
	// Only what is near the view keeps a large page quick to draw (a time
	// limit would depend on the machine's load, not on the page).
	if n == 0 || n > 60 {
		t.Errorf("%d messages in the DOM at first; want those near the view", n)
	}
	if !testing.Short() {
		var rows int
		b.Eval(t, `document.querySelectorAll('#tree .row').length`, &rows)
		if rows == 0 || rows > 300 {
			t.Errorf("%d tree rows of 4,001 in the DOM; want those in the sidebar's view", rows)
		}
	}
	// the last row of the tree: its card, in view, and few others
	b.Eval(t, `(() => { const s = document.getElementById('side'); s.scrollTop = s.scrollHeight; s.dispatchEvent(new Event('scroll')); return true; })()`, new(bool))
	last := s.Entries[len(s.Entries)-1].ID
	b.Wait(t, fmt.Sprintf(`!!document.querySelector('#tree .row[data-i="%d"]')`, len(s.Entries)-1))
	// clicked from the page: chromedp's click would scroll the sidebar
	// first, and the tree would draw that row anew under it
	b.Eval(t, fmt.Sprintf(`(document.querySelector('#tree .row[data-i="%d"]').click(), true)`, len(s.Entries)-1), new(bool))
	b.Wait(t, fmt.Sprintf(`!!document.getElementById(%q)`, last))
	if n := cards(); !inView("#"+last) || n > 60 {
		t.Errorf("after a click on the last row: its card in view %v, %d cards in the DOM (want a few)", inView("#"+last), n)
	}
	// search from the top of the page for a word of the last prompt
	b.Eval(t, `window.scrollTo(0, 0), true`, new(bool))
	b.Wait(t, `!!document.querySelector('#msgs article[data-i="0"]')`)
	b.Do(t, chromedp.SendKeys(chromedp.CSS("#q"), "xylophone"))
	b.Wait(t, `document.getElementById('hits').textContent !== ''`)
	var hits string
	b.Eval(t, `document.getElementById('hits').textContent`, &hits)
	if hits != "1 match" {
		t.Errorf("search: %q, want 1 match", hits)
	}
	b.Do(t, chromedp.SendKeys(chromedp.CSS("#q"), kb.Enter))
	b.Wait(t, `document.getElementById('hits').textContent === '1 of 1'`)
	if n := cards(); !inView("mark.hit.cur") || n > 60 {
		t.Errorf("the hit: in view %v, %d cards in the DOM (want a few)", inView("mark.hit.cur"), n)
	}
	if !strings.Contains(b.MsgsText(t), "xylophone") {
		t.Error("the hit's message is not rendered")
	}
	// scrolling brings in every batch
	b.Open(t, p)
	b.RenderAll(t)
	n = cards()
	want := 0
	for _, e := range tr.Path {
		if tr.Visible(e) {
			want++
		}
	}
	if n != want {
		t.Errorf("after scrolling to the end %d messages are in the page, want %d", n, want)
	}
	b.Clean(t, p)
}
