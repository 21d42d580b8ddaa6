package markdown

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/short"
)

// pieces are what random message texts are made of: Markdown syntax that
// changes what counts as code (backticks, fences, indentation, quotes,
// lists, tables, escapes) mixed with HTML and links that must stay text.
var pieces = []string{
	"`", "``", "```", "~~~", "\n", "\n\n", "    ", "  ", "> ", "- ", "1. ", "| a | b |\n|---|---|\n", "\\", "\\\\",
	"<script>window.pwned=1</script>", "<img src=x onerror=window.pwned=2>", "<b>", "</b>", "<!--", "-->", "<a href='javascript:window.pwned=3'>x</a>",
	"&lt;", "&amp;", "&#60;", "[x](javascript:window.pwned=4)", "[y]: javascript:window.pwned=5\n", "[y]", "![i](https://example.invalid/p.png)",
	"<https://example.invalid>", "*", "_", "#", "## ", "===\n", "---\n", "<", ">", "&", "!", "[", "]", "(", ")", "\"", "'", "text", " word ",
	"<details open ontoggle=window.pwned=6>", "<svg/onload=window.pwned=7>", "<style>*{display:none}</style>", "<iframe src=x>",
}

func randomText(r *rand.Rand) string {
	var b strings.Builder
	for range 4 + r.IntN(30) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// TestRandomTextInMarked renders hundreds of random message texts, escaped
// by safeMarkdown, through marked in Chromium: goldmark (which finds the
// code left as it is) and marked must agree, or HTML from a text would
// become elements. Each text is rendered on its own, then all together.
func TestRandomTextInMarked(t *testing.T) {
	dir := os.Getenv("SESSTOOL_NPM")
	if dir == "" {
		dir = filepath.Join(peers.RepoRoot(), ".cache", "npm")
	}
	marked, err := os.ReadFile(filepath.Join(dir, "node_modules", "marked", "lib", "marked.umd.js"))
	if err != nil {
		peers.Need(t, "marked not installed (run scripts/setup or set SESSTOOL_NPM): "+err.Error())
	}
	r := rand.New(rand.NewPCG(8, 18))
	var docs []string
	// the short loop renders the first 600 of the same 3,000 texts
	for range short.Size(3000, 600) {
		docs = append(docs, safeMarkdown(randomText(r)))
	}
	src, _ := json.Marshal(docs)
	var page bytes.Buffer
	page.WriteString("<!doctype html><meta charset=utf-8><body><div id=msgs></div><script>")
	page.Write(marked)
	page.WriteString("\n</script><script>const docs = ")
	page.Write(src)
	page.WriteString(`;
const ok = {P:1,H1:1,H2:1,H3:1,H4:1,H5:1,H6:1,UL:1,OL:1,LI:1,STRONG:1,EM:1,CODE:1,PRE:1,HR:1,BLOCKQUOTE:1,A:1,BR:1,DEL:1,TABLE:1,THEAD:1,TBODY:1,TR:1,TH:1,TD:1,INPUT:1};
const bad = [];
const box = document.getElementById('msgs');
docs.forEach((d, i) => {
  const div = document.createElement('div');
  div.innerHTML = marked.parse(d);
  box.appendChild(div);
  for (const el of div.querySelectorAll('*')) {
    if (!ok[el.tagName]) bad.push(i + ': element ' + el.outerHTML.slice(0, 100));
    for (const a of el.attributes) {
      const fine = (el.tagName === 'A' && a.name === 'href' && /^(https?:|mailto:|[^:]*$)/i.test(a.value)) ||
        (el.tagName === 'CODE' && a.name === 'class') || (el.tagName === 'OL' && a.name === 'start') ||
        ((el.tagName === 'TH' || el.tagName === 'TD') && a.name === 'align') ||
        (el.tagName === 'INPUT' && (a.name === 'type' && a.value === 'checkbox' || a.name === 'disabled' || a.name === 'checked'));
      if (!fine) bad.push(i + ': attribute ' + el.tagName + ' ' + a.name + '=' + a.value.slice(0, 60));
    }
  }
});
window.findings = bad;
setTimeout(() => { document.documentElement.dataset.ready = '1' }, 300);
</script>`)
	path := filepath.Join(t.TempDir(), "random.html")
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b := browsertest.New(t)
	b.Open(t, path)
	var out string
	b.Eval(t, `JSON.stringify(window.pwned === undefined ? window.findings : window.findings.concat(['window.pwned = ' + window.pwned]))`, &out)
	var bad []string
	if err := json.Unmarshal([]byte(out), &bad); err != nil {
		t.Fatal(err)
	}
	for i, f := range bad {
		if i == 20 {
			t.Errorf("... and %d more", len(bad)-20)
			break
		}
		t.Errorf("%s", f)
		var n int
		if _, err := fmtSscan(f, &n); err == nil && n < len(docs) {
			t.Logf("  text: %q", docs[n])
		}
	}
	b.Clean(t, path)
}

func fmtSscan(s string, n *int) (int, error) { return fmt.Sscanf(s, "%d:", n) }
