package command

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	"github.com/sesstool/sesstool/internal/testkit/golden"
)

// The sub-agent fixtures (testdata/subagents/README.md): a Claude Code
// session whose Task call started a run, with a second run no call names,
// and a Codex thread whose spawn_agent call started a sub-agent rollout.
var (
	claudeRuns = filepath.Join("..", "testdata", "subagents", "claude", "projects", "-home-dev-tool", "7c0d9e8f-1a2b-4c3d-8e4f-5a6b7c8d9e0f.jsonl")
	codexRuns  = filepath.Join("..", "testdata", "subagents", "codex", "home", "sessions", "2026", "04", "01", "rollout-2026-04-01T08-00-00-0196a1b2-0000-7000-8000-00000000000a.jsonl")
)

// exportTo runs export with o into a string (-o -).
func exportTo(t *testing.T, o ExportOptions) string {
	t.Helper()
	env, out, _ := testEnv("")
	o.Out = "-"
	if err := Export(env, o); err != nil {
		t.Fatalf("export %s %v: %v", o.Kind, o.Paths, err)
	}
	return out.String()
}

// pageData decodes a page's embedded data.
type pageData struct {
	Nodes []struct {
		ID      string `json:"id"`
		Visible bool   `json:"v"`
		Role    string `json:"r"`
		HTML    string `json:"h,omitempty"`
	} `json:"nodes"`
	Parents []int             `json:"parents"`
	Leaf    int               `json:"leaf"`
	Runs    []json.RawMessage `json:"runs"`
}

func decodePage(t *testing.T, page string) pageData {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script type="application/octet-stream" id="data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("page has no data block")
	}
	z, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(m[1]), ""))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var d pageData
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestExportSubagentsGolden pins both exports of the fixtures: in Markdown
// each run is a fold inside the call that started it (with --tools applied
// inside it too), the run no call names is at the end under its heading;
// in the page's data each run names the entry holding its call.
func TestExportSubagentsGolden(t *testing.T) {
	cases := []struct {
		name, path, kind, tools string
	}{
		{"claude.md", claudeRuns, "markdown", ""},
		{"claude-tools-summary.md", claudeRuns, "markdown", "summary"},
		{"claude-tools-none.md", claudeRuns, "markdown", "none"},
		{"codex.md", codexRuns, "markdown", ""},
		{"claude.html.txt", claudeRuns, "html", ""},
		{"codex.html.txt", codexRuns, "html", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := exportTo(t, ExportOptions{Kind: tc.kind, Tools: tc.tools, Paths: []string{tc.path}})
			if tc.kind == "html" {
				out = pageGolden(t, out)
			}
			golden.Assert(t, "subagents/"+tc.name, []byte(out))
		})
	}
}

// pageGolden is the page's data, one entry a block, then its runs.
func pageGolden(t *testing.T, page string) string {
	d := decodePage(t, page)
	var g strings.Builder
	for i, n := range d.Nodes {
		h := n.HTML
		n.HTML = ""
		head, _ := json.Marshal(n)
		g.WriteString("---- " + string(head) + " parent " + itoa(d.Parents[i]) + "\n" + h + "\n")
	}
	g.WriteString("==== leaf " + itoa(d.Leaf) + "\n")
	for _, r := range d.Runs {
		g.WriteString("run " + string(r) + "\n")
	}
	return g.String()
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestExportSubagentsReal checks the runs of the fixtures and of the real
// Claude Code sessions with sub-agents (SOURCES.md) in both exports.
func TestExportSubagentsReal(t *testing.T) {
	for _, p := range append([]string{claudeRuns, codexRuns}, realRuns(t)...) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			md := exportTo(t, ExportOptions{Kind: "markdown", Paths: []string{p}})
			d := decodePage(t, exportTo(t, ExportOptions{Kind: "html", Paths: []string{p}}))
			checkRuns(t, md, d)
		})
	}
}

// realRuns are the real Claude Code sessions with sub-agents (SOURCES.md).
func realRuns(t *testing.T) []string {
	shared := os.Getenv("SESSTOOL_SHARED")
	if shared == "" {
		shared = filepath.Join("..", "..", "shared")
	}
	rw := filepath.Join(shared, "real-world", "claude")
	var paths []string
	for _, p := range []string{
		"moredip+session-share__0ccf1a04/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl",
		"codemie-ai+codemie-code__incremental-subagents/e9fb405b-169f-40eb-9396-7e75076f045d.jsonl",
		"codemie-ai+codemie-code__tmp-private/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl",
		"marot+spotter__258c7280/258c7280-ae70-4798-800f-63464d01a85d.jsonl",
	} {
		if _, err := os.Stat(filepath.Join(rw, p)); err == nil {
			paths = append(paths, filepath.Join(rw, p))
		} else {
			t.Logf("%s: not there, not checked", p)
		}
	}
	return paths
}

// checkRuns: the page has runs; Markdown has a fold for each; no entry of
// a run is on the conversation's path (the page shows it only inside its
// run); both say alike whether a run's call is missing.
func checkRuns(t *testing.T, md string, d pageData) {
	t.Helper()
	if len(d.Runs) == 0 {
		t.Fatal("no sub-agent run in the page's data")
	}
	if folds := strings.Count(md, "<summary>Sub-agent: "); folds != len(d.Runs) {
		t.Errorf("markdown has %d sub-agent folds, the page %d runs", folds, len(d.Runs))
	}
	path := map[int]bool{}
	for j := d.Leaf; j >= 0 && !path[j]; j = d.Parents[j] {
		path[j] = true
	}
	for _, raw := range d.Runs {
		var r struct {
			E []int `json:"e"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		for _, i := range r.E {
			if path[i] {
				t.Errorf("run entry %d (%s) is on the main path", i, d.Nodes[i].ID)
			}
		}
	}
	if strings.Contains(md, "## Sub-agent runs whose tool call was not found") != strings.Contains(string(joinRuns(d.Runs)), `"host":-1`) {
		t.Error("markdown and the page disagree on whether a run's call is missing")
	}
}

func joinRuns(rs []json.RawMessage) []byte {
	var b []byte
	for _, r := range rs {
		b = append(append(b, r...), '\n')
	}
	return b
}

// TestExportSubagentsRedact: --redact masks what a run holds, in both exports.
func TestExportSubagentsRedact(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Dir(claudeRuns)
	secret := "ghp_0123456789abcdefghijABCDEFGHIJklmnop"
	err := filepath.WalkDir(src, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b = bytes.ReplaceAll(b, []byte("A marmoset checked"), []byte("GITHUB_TOKEN="+secret+" checked"))
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, filepath.Base(claudeRuns))
	for _, kind := range []string{"markdown", "html"} {
		plain := exportTo(t, ExportOptions{Kind: kind, Paths: []string{in}})
		red := exportTo(t, ExportOptions{Kind: kind, Redact: true, Paths: []string{in}})
		if kind == "html" {
			plain, red = pageGolden(t, plain), pageGolden(t, red)
		}
		if !strings.Contains(plain, secret) {
			t.Fatalf("%s: the planted secret is not in the run's export at all", kind)
		}
		if strings.Contains(red, secret) || !strings.Contains(red, "[REDACTED]") {
			t.Errorf("%s --redact: the secret in the sub-agent run is not masked", kind)
		}
	}
}

// TestExportSubagentsBrowser opens each fixture's page: the run is inside
// the block of the call that started it, folded, labelled with its agent
// and the call's description; the page's search finds a word only the run
// holds, and choosing the hit opens the fold and marks it; the run no call
// names is after the conversation under its heading.
func TestExportSubagentsBrowser(t *testing.T) {
	b := browsertest.New(t)
	cases := []struct {
		name, path, call, label, word string
		lost                          string // a word of a run whose call is not found
	}{
		{"claude", claudeRuns, "toolu_task1", "sub-agent: Explore — Find config loading · 3 messages", "marmoset", "pangolin"},
		// a run counts the cards it shows: the tool result sits in its call's
		// block, and Codex's agent_message copy is bookkeeping
		{"codex", codexRuns, "call_spawn1", "sub-agent: Ada · reviewer — Review the retry loop in client.go · 3 messages", "40,60p", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			page := filepath.Join(t.TempDir(), "page.html")
			if err := os.WriteFile(page, []byte(exportTo(t, ExportOptions{Kind: "html", Paths: []string{tc.path}})), 0o644); err != nil {
				t.Fatal(err)
			}
			b.Open(t, page)
			sel := `document.querySelector('#msgs [id="call-` + tc.call + `"] > details.run')`
			var ok bool
			b.Eval(t, sel+` !== null`, &ok)
			if !ok {
				t.Fatalf("no run inside the block of call %s", tc.call)
			}
			var label string
			b.Eval(t, sel+`.querySelector(':scope > summary').textContent`, &label)
			if label != tc.label {
				t.Errorf("run label = %q, want %q", label, tc.label)
			}
			b.Eval(t, `!`+sel+`.open`, &ok)
			if !ok {
				t.Error("the run is not folded")
			}
			// the run's messages are inside the fold and nowhere else
			var outside, inside int
			b.Eval(t, `[...document.querySelectorAll('#msgs article.msg')].filter((a) => {
				const c = a.cloneNode(true);
				c.querySelectorAll('details.run').forEach((d) => d.remove());
				return c.textContent.includes('`+tc.word+`') && !a.closest('details.run');
			}).length`, &outside)
			b.Eval(t, sel+`.querySelectorAll('article.msg').length`, &inside)
			if outside != 0 || inside == 0 {
				t.Errorf("run messages: %d inside the fold, %d loose in the conversation", inside, outside)
			}
			var visible bool
			b.Eval(t, `(() => { const a = [...`+sel+`.querySelectorAll('article.msg')].find((a) => a.textContent.includes('`+tc.word+`')); return !a || a.checkVisibility(); })()`, &visible)
			if visible {
				t.Error("the run's text is visible before its fold is opened")
			}
			b.Do(t, chromedp.SendKeys(chromedp.CSS("#q"), tc.word))
			b.Wait(t, `document.getElementById('hits').textContent !== ''`)
			var hits string
			b.Eval(t, `document.getElementById('hits').textContent`, &hits)
			if hits != "1 match" {
				t.Errorf("search for %q: %q, want 1 match", tc.word, hits)
			}
			b.Do(t, chromedp.SendKeys(chromedp.CSS("#q"), "\r"))
			b.Wait(t, `document.querySelector('#msgs mark.hit.cur') !== null`)
			b.Eval(t, `(() => { const m = document.querySelector('#msgs mark.hit.cur'); const d = m.closest('details.run'); return !!d && d.open && d.parentElement.id === 'call-`+tc.call+`' && m.textContent.toLowerCase() === '`+tc.word+`'; })()`, &ok)
			if !ok {
				t.Error("the search hit is not marked inside the opened run of its call")
			}
			if tc.lost != "" {
				var lost string
				b.Eval(t, `(() => { const s = document.querySelector('#msgs section.lost'); return s ? s.querySelector('h2').textContent + ' | ' + s.querySelector('details.run').textContent : ''; })()`, &lost)
				if !strings.HasPrefix(lost, "Sub-agent runs whose tool call was not found | ") || !strings.Contains(lost, tc.lost) {
					t.Errorf("the run no call names: %q", lost)
				}
			}
			b.Clean(t, page)
		})
	}
	// on the real sessions, every run is in the page once the path is all
	// rendered: inside its call, inside the compaction it wrote (a
	// compaction agent's), or after the conversation
	for _, p := range realRuns(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			html := exportTo(t, ExportOptions{Kind: "html", Paths: []string{p}})
			page := filepath.Join(t.TempDir(), "page.html")
			if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
				t.Fatal(err)
			}
			b.Open(t, page)
			b.RenderAll(t)
			var got, inCall int
			want := len(decodePage(t, html).Runs)
			b.Eval(t, `document.querySelectorAll('#msgs details.run').length`, &got)
			b.Eval(t, `[...document.querySelectorAll('#msgs details.run')].filter((d) => d.parentElement.matches('.tool[id^="call-"]') || d.parentElement.matches('section.lost') || d.parentElement.matches('article.compaction > .mb')).length`, &inCall)
			if got != want || inCall != want {
				t.Errorf("%d runs in the data, %d in the page, %d of them inside a call, a compaction or after the conversation", want, got, inCall)
			}
			b.Clean(t, page)
		})
	}
}
