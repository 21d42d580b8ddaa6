package markdown_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sesstool/sesstool/export/markdown"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/session"
)

// renderer is a Markdown renderer's browser build, which scripts/setup
// installs into .cache/npm (or $SESSTOOL_NPM), and the script that renders
// the JSON string md with it: renderers that do not sanitise, like many
// local Markdown viewers.
type renderer struct {
	name, file, call string
}

var (
	// marked with its defaults
	marked = renderer{"marked", "marked/lib/marked.umd.js", "marked.parse(md)"}
	// markdown-it with raw HTML on, as viewers that pass HTML through set it
	markdownIt = renderer{"markdown-it", "markdown-it/dist/browser/markdown-it.umd.min.js", "markdownit({html: true, linkify: true}).render(md)"}
)

// js reads r's build, or skips when it is not installed.
func (r renderer) js(t *testing.T) []byte {
	t.Helper()
	dir := os.Getenv("SESSTOOL_NPM")
	if dir == "" {
		dir = filepath.Join(peers.RepoRoot(), ".cache", "npm")
	}
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(r.file)))
	if err != nil {
		peers.Need(t, r.name+" not installed (run scripts/setup or set SESSTOOL_NPM): "+err.Error())
	}
	return b
}

// renderPage writes a page that renders md with r into #msgs with
// innerHTML (event handlers of inserted elements fire; scripts would be
// found by the element check) and marks itself ready.
func renderPage(t *testing.T, r renderer, js []byte, md string) string {
	t.Helper()
	src, _ := json.Marshal(md) // escapes < > &: the page's own script cannot be closed by it
	var page bytes.Buffer
	page.WriteString("<!doctype html><meta charset=utf-8><body><div id=msgs></div><script>")
	page.Write(js)
	page.WriteString("\n</script><script>const md = ")
	page.Write(src)
	page.WriteString(";document.getElementById('msgs').innerHTML = " + r.call + ";setTimeout(() => { document.documentElement.dataset.ready = '1' }, 300);</script>")
	path := filepath.Join(t.TempDir(), "md.html")
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// inspect lists, in the rendered page, every element and attribute that
// Markdown syntax does not make, every link to other than a web or mail
// address, and a global any hostile handler set.
const inspect = `(() => {
  const ok = {P:1,H1:1,H2:1,H3:1,H4:1,H5:1,H6:1,UL:1,OL:1,LI:1,STRONG:1,EM:1,CODE:1,PRE:1,DETAILS:1,SUMMARY:1,HR:1,BLOCKQUOTE:1,A:1,BR:1,DEL:1,TABLE:1,THEAD:1,TBODY:1,TR:1,TH:1,TD:1};
  const bad = [];
  if (window.pwned !== undefined) bad.push('window.pwned = ' + window.pwned);
  for (const el of document.getElementById('msgs').querySelectorAll('*')) {
    if (!ok[el.tagName]) bad.push('element ' + el.outerHTML.slice(0, 120));
    for (const a of el.attributes) {
      const fine = (el.tagName === 'A' && a.name === 'href' && /^(https?:|mailto:|[^:]*$)/i.test(a.value)) ||
        (el.tagName === 'CODE' && a.name === 'class' && /^language-/.test(a.value)) ||
        (el.tagName === 'OL' && a.name === 'start') || ((el.tagName === 'TH' || el.tagName === 'TD') && a.name === 'align');
      if (!fine) bad.push('attribute ' + el.tagName + ' ' + a.name + '=' + a.value.slice(0, 80));
    }
  }
  return JSON.stringify(bad);
})()`

// visible is the page's text with every fold open, whitespace collapsed.
const visible = `(() => { document.querySelectorAll('details').forEach(d => d.open = true);
  return document.getElementById('msgs').innerText.replace(/\s+/g, ' '); })()`

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestHostileInMarked renders the transcript of a session with hostile HTML
// in every field through marked in Chromium: nothing from the session may
// become an element or attribute, no script may run, nothing may load, and
// each hostile string must be shown as the text it is.
func TestHostileInMarked(t *testing.T) { hostileIn(t, marked) }

// TestHostileInMarkdownIt: the same through markdown-it with raw HTML on.
func TestHostileInMarkdownIt(t *testing.T) { hostileIn(t, markdownIt) }

func hostileIn(t *testing.T, r renderer) {
	js := r.js(t)
	b := browsertest.New(t)
	check := func(t *testing.T, md string, clean bool) (bad []string, text string) {
		page := renderPage(t, r, js, md)
		b.Open(t, page)
		time.Sleep(200 * time.Millisecond) // let onerror and onload handlers fire
		var out string
		b.Eval(t, inspect, &out)
		if err := json.Unmarshal([]byte(out), &bad); err != nil {
			t.Fatal(err)
		}
		b.Eval(t, visible, &text)
		if clean {
			b.Clean(t, page) // no console error, no request but the page
		}
		return bad, text
	}

	// The check itself: the same strings written as they are must be caught.
	t.Run("control", func(t *testing.T) {
		bad, _ := check(t, strings.Join(fixture.Hostile, "\n\n")+"\n\n"+strings.Join(fixture.HostileMarkdown, "\n\n"), false)
		if len(bad) < len(fixture.Hostile) {
			t.Errorf("the raw hostile strings gave only %d findings: %q", len(bad), bad)
		}
	})

	// injected text, shown as chips: on the chip's line (short) or in a
	// fold's code block (long)
	t.Run("chips", func(t *testing.T) {
		s := &session.Session{Meta: session.Meta{ID: "chips"}}
		for i, h := range fixture.Hostile {
			for j, text := range []string{"<command-name>" + h + "</command-name>", "<system-reminder>\n" + h + "\n" + h + "\n</system-reminder>"} {
				s.Entries = append(s.Entries, &session.Entry{Kind: session.KindMessage, ID: fmt.Sprintf("u%d-%d", i, j),
					Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: text}}}})
			}
		}
		tr, err := transcript.New(s, "")
		if err != nil {
			t.Fatal(err)
		}
		var md bytes.Buffer
		if err := markdown.Write(&md, tr); err != nil {
			t.Fatal(err)
		}
		bad, text := check(t, md.String(), true)
		for _, f := range bad {
			t.Errorf("from a chip: %s", f)
		}
		for _, h := range fixture.Hostile {
			if n := strings.Count(text, collapse(h)); n < 2 {
				t.Errorf("%q is shown as text %d times in the chips, want 2+", h, n)
			}
		}
	})

	for _, tools := range []markdown.Tools{markdown.ToolsFull, markdown.ToolsSummary, markdown.ToolsNone} {
		t.Run(string(tools), func(t *testing.T) {
			tr, err := transcript.New(fixture.HostileSession(), "")
			if err != nil {
				t.Fatal(err)
			}
			var md bytes.Buffer
			if err := markdown.WriteTools(&md, tr, tools); err != nil {
				t.Fatal(err)
			}
			bad, text := check(t, md.String(), true)
			for _, f := range bad {
				t.Errorf("from the session: %s", f)
			}
			all := collapse(fixture.HostileAll())
			if n := strings.Count(text, all); n < 5 {
				t.Errorf("the hostile line is shown intact %d times, want the title, ids, cwd, models and more (5+)", n)
			}
			for _, h := range fixture.Hostile {
				if n := strings.Count(text, collapse(h)); n < 10 {
					t.Errorf("%q is shown as text %d times, want 10+ (every field)", h, n)
				}
			}
			if t.Failed() {
				t.Logf("markdown:\n%s", md.String())
			}
		})
	}
}
