// Package browsertest drives Debian's Chromium headless through chromedp
// for the exporter's tests: open a page from file://, read it, click it,
// and record console errors and network requests.
package browsertest

import (
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
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/session"
)

// Ctx is the browser tab's context, for chromedp actions.
func (b *Browser) Ctx() context.Context { return b.ctx }

// NeedPeer skips a test whose external program is missing, unless
// SESSTOOL_REQUIRE_PEERS=1 (CI), where a skip would hide a gap.
func NeedPeer(t *testing.T, format string, args ...any) {
	t.Helper()
	peers.Need(t, fmt.Sprintf(format, args...))
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
	NeedPeer(t, "Chromium not found (apt-get install chromium, or set SESSTOOL_CHROMIUM): browser test skipped")
	return ""
}

// artifacts is where screenshots go: $SESSTOOL_ARTIFACTS or a folder in the temp dir.
// Artifacts is where screenshots go.
func Artifacts(t *testing.T) string {
	d := os.Getenv("SESSTOOL_ARTIFACTS")
	if d == "" {
		d = filepath.Join(os.TempDir(), "sesstool-artifacts")
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// Browser is one headless Chromium with a record of console errors and of
// every request the page made.
type Browser struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
	requests []string
}

// shared is the one Chromium of this test binary: starting one costs
// seconds of CPU, so every test of a package opens a tab in the same one.
// It ends with the test binary (chromedp starts it with Pdeathsig).
var shared struct {
	once sync.Once
	ctx  context.Context // the browser's first tab, which keeps it open
	pid  int
	err  error
}

// New opens a tab of its own for t in the package's one browser, closed
// when t ends.
func New(t *testing.T) *Browser {
	t.Helper()
	bin := chromium(t)
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "sesstool-chromium-")
		if err != nil {
			shared.err = err
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
			chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true), chromedp.UserDataDir(dir), chromedp.WindowSize(1280, 900),
		}
		actx, _ := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, _ := chromedp.NewContext(actx)
		if shared.err = chromedp.Do(ctx); shared.err == nil {
			shared.ctx, shared.pid = ctx, chromedp.FromContext(ctx).Browser.Process().Pid
		}
	})
	if shared.err != nil {
		NeedPeer(t, "Chromium at %s did not start: %v", bin, shared.err)
	}
	ctx, cancel := chromedp.NewContext(shared.ctx)
	t.Cleanup(cancel)
	b := &Browser{ctx: ctx}
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
		NeedPeer(t, "Chromium at %s did not start: %v", bin, err)
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

// Open loads a page from file:// and waits until its script has drawn it.
func (b *Browser) Open(t *testing.T, path string) {
	t.Helper()
	b.mu.Lock()
	b.problems, b.requests = nil, nil
	b.mu.Unlock()
	url := "file://" + path
	if err := chromedp.Do(b.ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	b.Wait(t, `document.documentElement.dataset.ready === '1' || document.getElementById('msgs').textContent.startsWith('Could not')`)
	var msg string
	b.Eval(t, `document.getElementById('msgs').textContent.startsWith('Could not') ? document.getElementById('msgs').textContent : ''`, &msg)
	if msg != "" {
		t.Fatalf("page failed: %s", msg)
	}
}

func (b *Browser) Eval(t *testing.T, js string, out any) {
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

func (b *Browser) Do(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// Wait polls a JavaScript condition until it holds.
func (b *Browser) Wait(t *testing.T, cond string) {
	t.Helper()
	// No wall-clock limit: the wait fails when the browser, renderers
	// included, uses no CPU for a while (nothing more will happen) or far
	// more than any page needs, however loaded the machine.
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	done, errc := make(chan struct{}), make(chan error, 1)
	go func() {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(0)))
		errc <- err
		close(done)
	}()
	if v := hangwatch.WatchTree(shared.pid, done, hangwatch.Limits{CPU: 10 * time.Minute, Stall: 30 * time.Second}); v != "" {
		cancel()
		t.Fatalf("waiting for %s: the browser %s", cond, v)
	}
	if err := <-errc; err != nil {
		t.Fatalf("waiting for %s: %v", cond, err)
	}
}

// RenderAll puts every card of the current path in the page, as printing
// does: the page renders only the cards near the view otherwise.
func (b *Browser) RenderAll(t *testing.T) {
	t.Helper()
	var left int
	b.Eval(t, `(() => { window.dispatchEvent(new Event('beforeprint'));
		return document.querySelectorAll('#msgs > .pad').length === 2 ? [...document.querySelectorAll('#msgs > .pad')].reduce((s, p) => s + p.offsetHeight, 0) : -1; })()`, &left)
	if left != 0 {
		t.Fatalf("after printing's rendering, the spacers of the cards not rendered are %d px high, want 0", left)
	}
}

func (b *Browser) MsgsText(t *testing.T) string {
	var s string
	b.Eval(t, `document.getElementById('msgs').textContent`, &s)
	return s
}

// Clean checks the page logged no error and loaded nothing but itself and data: URLs.
func (b *Browser) Clean(t *testing.T, page string) {
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

// CheckPath asserts that every entry of the active path that is shown as a
// message has its article in the page, holding the words of its text.
func (b *Browser) CheckPath(t *testing.T, tr *transcript.Transcript) {
	t.Helper()
	b.RenderAll(t)
	text := b.MsgsText(t)
	for i, e := range tr.Path {
		// the cards of a sub-agent run shown inside its call are left out
		if !tr.Visible(e) || tr.InRun(indexOf(tr, e)) {
			continue
		}
		var found bool
		b.Eval(t, fmt.Sprintf(`!!document.getElementById(%q)`, html.Anchor(e, indexOf(tr, e))), &found)
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

func Screenshot(t *testing.T, b *Browser, name string) {
	t.Helper()
	b.Eval(t, `window.scrollTo(0, 0), true`, new(bool))
	b.shot(t, name)
}

// ScreenshotAt scrolls the element with this id to the top first.
func ScreenshotAt(t *testing.T, b *Browser, id, name string) {
	t.Helper()
	b.Eval(t, fmt.Sprintf(`document.getElementById(%q).scrollIntoView(), true`, id), new(bool))
	b.shot(t, name)
}

func (b *Browser) shot(t *testing.T, name string) {
	t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	p := filepath.Join(Artifacts(t), name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
	fmt.Fprintf(os.Stderr, "screenshot: %s\n", p)
}

// Words returns the text of the first element matching selector with a
// space between text nodes, so words of adjacent elements do not run together.
func (b *Browser) Words(t *testing.T, selector string) string {
	t.Helper()
	var s string
	b.Eval(t, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) return '';
		const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT); const out = [];
		while (w.nextNode()) { if (w.currentNode.parentElement.closest('script, style')) continue; out.push(w.currentNode.nodeValue); }
		return out.join(' '); })()`, selector), &s)
	return s
}

// Axe runs axe-core (the project's npm test dependency, scripts/npm) on
// the page as it is now and returns its serious and critical violations,
// one line each with up to three of the elements at fault.
func (b *Browser) Axe(t *testing.T) []string {
	t.Helper()
	dir := os.Getenv("SESSTOOL_NPM")
	if dir == "" {
		dir = filepath.Join(moduleRoot(), ".cache", "npm")
	}
	src, err := os.ReadFile(filepath.Join(dir, "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		NeedPeer(t, "axe-core not installed (run scripts/setup or set SESSTOOL_NPM): %v", err)
	}
	b.Eval(t, string(src)+";true", new(bool))
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map((v) => v.id + ' (' + v.impact + '): ' + v.help + ': ' + v.nodes.slice(0, 3).map((n) => n.html.slice(0, 120) + ' ' + n.failureSummary).join(' | ')))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe: %v", err)
	}
	return out
}

// moduleRoot is the directory of go.mod above the test's directory.
func moduleRoot() string {
	d, _ := os.Getwd()
	for p := d; ; p = filepath.Dir(p) {
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
			return p
		}
		if filepath.Dir(p) == p {
			return d
		}
	}
}
