package html

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/sesstool/sesstool/export/transcript"
	fixture "github.com/sesstool/sesstool/internal/exportfixture"
	"github.com/sesstool/sesstool/session"
)

// needPeer skips a test whose external program is missing, unless
// SESSTOOL_REQUIRE_PEERS=1 (CI), where a skip would hide a gap.
func needPeer(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("SESSTOOL_REQUIRE_PEERS") == "1" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

func chromium(t *testing.T) string {
	for _, p := range []string{os.Getenv("SESSTOOL_CHROMIUM"), "/usr/bin/chromium", "chromium", "chromium-browser"} {
		if p == "" {
			continue
		}
		if q, err := exec.LookPath(p); err == nil {
			return q
		}
	}
	needPeer(t, "Chromium not found (apt-get install chromium, or set SESSTOOL_CHROMIUM): browser test skipped")
	return ""
}

// artifacts is where screenshots go: $SESSTOOL_ARTIFACTS or a folder in the temp dir.
func artifacts(t *testing.T) string {
	d := os.Getenv("SESSTOOL_ARTIFACTS")
	if d == "" {
		d = filepath.Join(os.TempDir(), "sesstool-artifacts")
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// browser is one headless Chromium with a record of console errors and of
// every request the page made.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
	requests []string
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	bin := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelT(); cancel(); cancelA() })
	b := &browser{ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
				b.problems = append(b.problems, fmt.Sprintf("console.%s %s", e.Type, args(e.Args)))
			}
		case *runtime.EventExceptionThrown:
			b.problems = append(b.problems, fmt.Sprintf("exception: %s %v", e.ExceptionDetails.Text, e.ExceptionDetails.Exception))
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				b.problems = append(b.problems, fmt.Sprintf("log %s: %s %s", e.Entry.Level, e.Entry.Text, e.Entry.URL))
			}
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, e.Request.URL)
		}
	})
	if err != nil {
		needPeer(t, "Chromium at %s did not start: %v", bin, err)
	}
	return b
}

func args(as []*runtime.RemoteObject) string {
	var s []string
	for _, a := range as {
		s = append(s, string(a.Value)+a.Description)
	}
	return strings.Join(s, " ")
}

// open loads a page from file:// and waits until its script has drawn it.
func (b *browser) open(t *testing.T, path string) {
	t.Helper()
	b.mu.Lock()
	b.problems, b.requests = nil, nil
	b.mu.Unlock()
	url := "file://" + path
	if err := chromedp.Do(b.ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	b.wait(t, `document.documentElement.dataset.ready === '1' || document.getElementById('msgs').textContent.startsWith('Could not')`)
	var msg string
	b.eval(t, `document.getElementById('msgs').textContent.startsWith('Could not') ? document.getElementById('msgs').textContent : ''`, &msg)
	if msg != "" {
		t.Fatalf("page failed: %s", msg)
	}
}

func (b *browser) eval(t *testing.T, js string, out any) {
	t.Helper()
	var err error
	switch o := out.(type) {
	case *string:
		*o, err = chromedp.Run(b.ctx, chromedp.Evaluate[string](js))
	case *bool:
		*o, err = chromedp.Run(b.ctx, chromedp.Evaluate[bool](js))
	case *int:
		*o, err = chromedp.Run(b.ctx, chromedp.Evaluate[int](js))
	default:
		t.Fatalf("eval into %T", out)
	}
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
}

func (b *browser) do(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// wait polls a JavaScript condition until it holds.
func (b *browser) wait(t *testing.T, cond string) {
	t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v", cond, err)
	}
}

// renderAll scrolls until every batch of the current path is in the page.
func (b *browser) renderAll(t *testing.T) {
	t.Helper()
	for range 10000 {
		var left string
		b.eval(t, `(() => { const m = document.getElementById('more'); m.scrollIntoView(); return m.textContent; })()`, &left)
		if left == "" {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the page never finished rendering the path")
}

func (b *browser) msgsText(t *testing.T) string {
	var s string
	b.eval(t, `document.getElementById('msgs').textContent`, &s)
	return s
}

// clean checks the page logged no error and loaded nothing but itself and data: URLs.
func (b *browser) clean(t *testing.T, page string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		t.Errorf("console: %s", p)
	}
	for _, r := range b.requests {
		if r != "file://"+page && !strings.HasPrefix(r, "data:") {
			t.Errorf("network request: %s", r)
		}
	}
}

var wordRe = regexp.MustCompile(`[A-Za-z]{4,}`)

// checkPath asserts that every entry of the active path that is shown as a
// message has its article in the page, holding the words of its text.
func (b *browser) checkPath(t *testing.T, tr *transcript.Transcript) {
	t.Helper()
	b.renderAll(t)
	text := b.msgsText(t)
	for i, e := range tr.Path {
		if !tr.Visible(e) {
			continue
		}
		var found bool
		b.eval(t, fmt.Sprintf(`!!document.getElementById(%q)`, anchor(e, indexOf(tr, e))), &found)
		if !found {
			t.Errorf("path entry %d (%s) has no article", i, e.ID)
		}
		if e.Message != nil {
			for _, w := range firstWords(e.Message.Text(), 6) {
				if !strings.Contains(text, w) {
					t.Errorf("path entry %s: word %q not in the page", e.ID, w)
				}
			}
		}
	}
}

func indexOf(tr *transcript.Transcript, e *session.Entry) int {
	for i, x := range tr.S.Entries {
		if x == e {
			return i
		}
	}
	return -1
}

func firstWords(s string, n int) []string {
	ws := wordRe.FindAllString(s, n)
	return ws
}

func screenshot(t *testing.T, b *browser, name string) {
	t.Helper()
	b.eval(t, `window.scrollTo(0, 0), true`, new(bool))
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	p := filepath.Join(artifacts(t), name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
	fmt.Fprintf(os.Stderr, "screenshot: %s\n", p)
}

func writePage(t *testing.T, s *session.Session, leaf string) (string, *transcript.Transcript) {
	t.Helper()
	tr, err := transcript.New(s, leaf)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, tr
}

func TestBrowser(t *testing.T) {
	b := newBrowser(t)
	page, tr := writePage(t, fixture.Session(), "")
	b.open(t, page)

	t.Run("active path", func(t *testing.T) {
		b.checkPath(t, tr)
		text := b.msgsText(t)
		for _, want := range []string{"zanzibar", "go test ./...", "exit status 1", `println("hi")`, "The parser was fixed", "Tried a rewrite", "fixed"} {
			if !strings.Contains(text, want) {
				t.Errorf("page lacks %q", want)
			}
		}
		if strings.Contains(text, "quokka") {
			t.Error("the other branch is shown on the default path")
		}
	})
	t.Run("hostile content is text", func(t *testing.T) {
		var pwned string
		b.eval(t, `String(window.__pwned) + ' ' + String(window.__pwned2)`, &pwned)
		if pwned != "undefined undefined" {
			t.Errorf("injected code ran: %s", pwned)
		}
		text := b.msgsText(t)
		for _, want := range []string{fixture.Script, `onerror="window.__pwned2 = 1"`} {
			if !strings.Contains(text, want) {
				t.Errorf("hostile text %q not shown as text", want)
			}
		}
		var n int
		b.eval(t, `document.querySelectorAll('#msgs script, #msgs img:not(.img), #msgs [onerror]').length`, &n)
		if n != 0 {
			t.Errorf("%d live script/img/onerror elements from session text", n)
		}
	})
	t.Run("search", func(t *testing.T) {
		b.do(t, chromedp.SendKeys(chromedp.CSS("#q"), "quokka"))
		b.wait(t, `document.getElementById('hits').textContent !== ''`)
		var hits, row string
		b.eval(t, `document.getElementById('hits').textContent`, &hits)
		if hits != "1 match" {
			t.Errorf("search for quokka: %q, want 1 match", hits)
		}
		b.eval(t, `document.querySelector('#tree .row').textContent`, &row)
		if !strings.Contains(row, "quokka") {
			t.Errorf("search hit row = %q", row)
		}
	})
	t.Run("switch branch", func(t *testing.T) {
		b.do(t, chromedp.Click(chromedp.CSS(`#tree .row`)))
		text := b.msgsText(t)
		if !strings.Contains(text, "quokka") || !strings.Contains(text, "keep it simple") || strings.Contains(text, "zanzibar") {
			t.Errorf("after clicking the other branch the page shows: %.300s", text)
		}
		other, err := transcript.New(fixture.Session(), "b2")
		if err != nil {
			t.Fatal(err)
		}
		b.checkPath(t, other)
		// clear the search, go back by clicking the last entry of the main branch
		b.eval(t, `(() => { const q = document.getElementById('q'); q.value = ''; q.dispatchEvent(new Event('input')); return true; })()`, new(bool))
		b.wait(t, `document.getElementById('hits').textContent === ''`)
		b.do(t, chromedp.Click(chromedp.CSS(`#tree .row[data-i="20"]`)))
		if !strings.Contains(b.msgsText(t), "zanzibar") {
			t.Error("could not switch back to the main branch")
		}
	})
	t.Run("filters and theme", func(t *testing.T) {
		var rows int
		b.do(t, chromedp.Click(chromedp.CSS(`#filters button[data-f="user"]`)))
		b.eval(t, `document.querySelectorAll('#tree .row').length`, &rows)
		if rows != 3 {
			t.Errorf("user filter shows %d rows, want 3", rows)
		}
		b.do(t, chromedp.Click(chromedp.CSS(`#filters button[data-f="labeled"]`)))
		b.eval(t, `document.querySelectorAll('#tree .row').length`, &rows)
		if rows != 1 {
			t.Errorf("labeled filter shows %d rows, want 1", rows)
		}
		var theme string
		b.do(t, chromedp.Click(chromedp.CSS(`#filters button[data-f="default"]`)), chromedp.Click(chromedp.CSS("#theme")))
		b.eval(t, `document.documentElement.dataset.theme`, &theme)
		if theme != "dark" {
			t.Errorf("theme toggle gave %q, want dark", theme)
		}
		screenshot(t, b, "export-fixture-dark.png")
		b.do(t, chromedp.Click(chromedp.CSS("#theme")))
	})
	t.Run("deep link", func(t *testing.T) {
		b.do(t, chromedp.Navigate("file://"+page+"#b1"))
		b.wait(t, `document.documentElement.dataset.ready === '1'`)
		if !strings.Contains(b.msgsText(t), "quokka") {
			t.Error("#b1 did not open the branch holding b1")
		}
	})
	b.clean(t, page)
	b.open(t, page)
	screenshot(t, b, "export-fixture.png")
	b.clean(t, page)
}
