package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
)

// realSession is a real session of ../shared/real-world, or a skip.
func realSession(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(shared.Dir(), "real-world", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		peers.Need(t, "real session "+p+" not found (set SESSTOOL_SHARED to the shared folder)")
	}
	return p
}

var (
	spotterSession = "claude/marot+spotter__258c7280/258c7280-ae70-4798-800f-63464d01a85d.jsonl"
	acidicSession  = "codex/AcidicSoil+codex-session-viewer__example.jsonl"
)

// firstScreen is the roles and HTML of the first n cards of the page's
// shown branch, as the page's script lists them (visible entries of the
// path from the root to the leaf).
func firstScreen(d pageData, n int) (roles, html []string) {
	var path []int
	for i := d.Leaf; i >= 0; i = d.Parents[i] {
		path = append(path, i)
	}
	for k := len(path) - 1; k >= 0 && len(roles) < n; k-- {
		if nd := d.Nodes[path[k]]; nd.Visible {
			roles, html = append(roles, nd.Role), append(html, nd.HTML)
		}
	}
	return roles, html
}

// TestRealWorldConversation exports real Claude Code and Codex sessions:
// the first screen of the page is the conversation (no progress,
// snapshot, token count, turn context or copied event card), and the
// Markdown holds every prompt and answer that --all-records holds, without
// the bookkeeping.
func TestRealWorldConversation(t *testing.T) {
	for _, tc := range []struct {
		name, rel string
		maxMD     int
		timed     bool
	}{
		{"claude spotter", spotterSession, 900 << 10, true},
		{"codex AcidicSoil", acidicSession, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := realSession(t, tc.rel)
			d := decodePage(t, exportTo(t, ExportOptions{Kind: "html", Paths: []string{p}}))
			roles, htmls := firstScreen(d, 60)
			if len(roles) < 30 {
				t.Fatalf("the first screen has %d cards", len(roles))
			}
			for k, r := range roles {
				switch r {
				case "user", "injected", "assistant", "assistant-tools", "tool", "compaction", "system", "other", "custom":
				default:
					t.Errorf("card %d is a %q", k, r)
				}
				for _, book := range []string{"progress", "file-history-snapshot", "queue-operation", "token_count", "turn_context", "task_started", "event_msg"} {
					if strings.Contains(htmls[k], `<span class="who">`+book) || strings.Contains(htmls[k], `<span class="who">custom: `+book) ||
						strings.Contains(htmls[k], `<span class="who">custom: codex:`+book) {
						t.Errorf("card %d is a %s record: %.200s", k, book, htmls[k])
					}
				}
			}
			md := exportTo(t, ExportOptions{Kind: "markdown", Paths: []string{p}})
			all := exportTo(t, ExportOptions{Kind: "markdown", Paths: []string{p}, AllRecords: true})
			if tc.maxMD > 0 && len(md) > tc.maxMD {
				t.Errorf("Markdown is %d bytes, want at most %d", len(md), tc.maxMD)
			}
			for _, head := range []string{"### User", "### Assistant"} {
				if got, want := strings.Count(md, "\n"+head), strings.Count(all, "\n"+head); got != want || want == 0 {
					t.Errorf("%q sections: %d, with --all-records %d", head, got, want)
				}
			}
			// the session's span and, under each prompt, what followed it
			// (the Codex session's lines are not timed: no duration there)
			if !regexp.MustCompile(`\n### User · \d+ tool calls?`).MatchString(md) {
				t.Error("the Markdown does not say each prompt's tool calls")
			}
			if tc.timed && (!strings.Contains(md, "- **Duration:** ") || !regexp.MustCompile(`\n### User · \d+ tool calls? · \d`).MatchString(md)) {
				t.Error("the Markdown says neither the session's duration nor each prompt's time")
			}
			book := regexp.MustCompile(`(?m)^### (?:progress|file-history-snapshot|queue-operation|last-prompt|turn_context|Custom: codex:)`)
			if m := book.FindAllString(md, 3); len(m) > 0 {
				t.Errorf("bookkeeping sections in the Markdown: %q", m)
			}
			if !book.MatchString(all) {
				t.Error("--all-records shows no bookkeeping record")
			}
		})
	}
}

// TestRealWorldCostNotRecorded: Claude Code and Codex record tokens but no
// cost, so cost is "—" in the Markdown, the page and a site's index,
// never $0.0000, and absent (not 0) from info's JSON.
func TestRealWorldCostNotRecorded(t *testing.T) {
	for _, rel := range []string{spotterSession, acidicSession, "claude/marot+spotter__tool_heavy.jsonl"} {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			p := realSession(t, rel)
			md := exportTo(t, ExportOptions{Kind: "markdown", Paths: []string{p}})
			if strings.Contains(md, "$0.0000") || !strings.Contains(md, "**Cost:** — (not recorded)") {
				t.Errorf("Markdown's cost line: %q", regexp.MustCompile(`(?m)^- \*\*Cost:\*\*.*$`).FindString(md))
			}
			page := exportTo(t, ExportOptions{Kind: "html", Paths: []string{p}})
			if regexp.MustCompile(`\$0(\.0+)?<`).MatchString(page) || strings.Contains(page, `class="cost" fill`) {
				t.Error("the page charts a cost of $0 the session did not record")
			}
			env, out, _ := testEnv("")
			if err := Info(env, InfoOptions{Output: "json", Paths: []string{p}}); err != nil {
				t.Fatal(err)
			}
			var st map[string]any
			if err := json.Unmarshal(out.Bytes(), &st); err != nil {
				t.Fatal(err)
			}
			if c, ok := st["cost"]; ok {
				t.Errorf(`info --output json: "cost": %v, want no cost`, c)
			}
		})
	}
	// a site's index: the Cost column says — for each such session
	dir, store := t.TempDir(), t.TempDir() // a store of two real sessions, copied for the run
	for _, rel := range []string{"claude/marot+spotter__short.jsonl", "claude/marot+spotter__tool_heavy.jsonl"} {
		b, err := os.ReadFile(realSession(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(store, filepath.Base(rel)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env, _, _ := testEnv("")
	if err := Export(env, ExportOptions{Kind: "html", Out: dir + "/", Paths: []string{store}}); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(index), "$0.00") {
		t.Error("the index shows a cost of $0.00 the sessions did not record")
	}
	// each row's Cost cell, whatever other attributes it carries: sorted
	// as unknown (-1, below every recorded cost) and shown as —
	cells := regexp.MustCompile(`<td data-k="cost"[^>]*? data-v="([^"]*)"[^>]*>(.*?)</td>`).FindAllStringSubmatch(string(index), -1)
	if len(cells) != 2 {
		t.Errorf("the index has %d Cost cells, want one for each of the 2 sessions", len(cells))
	}
	for _, c := range cells {
		if c[1] != "-1" || !strings.Contains(c[2], "—") || strings.Contains(c[2], "$") {
			t.Errorf("the index shows a cost the sessions did not record: %s", c[0])
		}
	}
}

// TestRealWorldToolCalls: every tool call is readable. Codex's shell
// commands (argv arrays) show as their command lines, not as an empty $
// prompt; Claude Code's Bash calls show their description; file text loses
// the tool's line numbers (`   1→`).
func TestRealWorldToolCalls(t *testing.T) {
	numbered := regexp.MustCompile(`(?m)^\s*\d+→`)
	t.Run("codex", func(t *testing.T) {
		p := realSession(t, acidicSession)
		md := exportTo(t, ExportOptions{Kind: "markdown", Paths: []string{p}})
		if n := strings.Count(md, "\n$ \n"); n > 0 {
			t.Errorf("%d empty $ prompts in the Markdown", n)
		}
		if !strings.Contains(md, "\n$ ls -la docs") {
			t.Error("the Markdown does not show the command ls -la docs")
		}
		var html strings.Builder
		for _, n := range decodePage(t, exportTo(t, ExportOptions{Kind: "html", Paths: []string{p}})).Nodes {
			html.WriteString(n.HTML)
		}
		page := html.String()
		if !strings.Contains(page, "ls -la docs") {
			t.Error("the page does not show the command ls -la docs")
		}
		if n := regexp.MustCompile(`<span class="prompt">\$ </span>(?:</code>|\n)`).FindAllStringIndex(page, -1); len(n) > 0 {
			t.Errorf("%d empty $ prompts on the page", len(n))
		}
	})
	t.Run("claude", func(t *testing.T) {
		p := realSession(t, spotterSession)
		md := exportTo(t, ExportOptions{Kind: "markdown", Paths: []string{p}})
		if m := numbered.FindAllString(md, 3); len(m) > 0 {
			t.Errorf("line-number prefixes in the Markdown: %q", m)
		}
		var html strings.Builder
		for _, n := range decodePage(t, exportTo(t, ExportOptions{Kind: "html", Paths: []string{p}})).Nodes {
			html.WriteString(n.HTML)
		}
		if m := numbered.FindAllString(html.String(), 3); len(m) > 0 {
			t.Errorf("line-number prefixes on the page: %q", m)
		}
		if !strings.Contains(html.String(), `<p class="dim desc">`) {
			t.Error("no Bash description on the page")
		}
	})
}

// TestRealWorldTitles: no real session is titled by the text its agent or
// IDE put into a user message (<ide_opened_file>, "Caveat: …",
// <user_instructions>, AGENTS.md, <environment_context>).
func TestRealWorldTitles(t *testing.T) {
	var files []string
	for _, g := range []string{"claude/*.jsonl", "codex/*.jsonl"} {
		m, _ := filepath.Glob(filepath.Join(shared.Dir(), "real-world", g))
		files = append(files, m...)
	}
	if len(files) == 0 {
		peers.Need(t, "no real sessions in "+filepath.Join(shared.Dir(), "real-world"))
	}
	bad := regexp.MustCompile(`^# (?:&lt;|Caveat|\\# AGENTS\.md)`)
	for _, p := range files {
		md := exportTo(t, ExportOptions{Kind: "markdown", Tools: "none", Paths: []string{p}})
		title, _, _ := strings.Cut(md, "\n")
		if bad.MatchString(title) {
			t.Errorf("%s: titled %q", filepath.Base(p), title)
		}
	}
}

// TestRealWorldLeaf: the leaf info names and the page ends its branch at
// is conversation: not the marker of the compaction agent's run Claude
// Code's reader adds after the last line (subagent:acompact-…), not a
// last-prompt or summary line (#5, #86).
func TestRealWorldLeaf(t *testing.T) {
	for _, rel := range []string{spotterSession, "claude/kvsankar+agent-history__session-01.jsonl",
		"claude/moredip+session-share__0ccf1a04/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl"} {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			p := realSession(t, rel)
			env, out, _ := testEnv("")
			if err := Info(env, InfoOptions{Output: "json", Paths: []string{p}}); err != nil {
				t.Fatal(err)
			}
			var st struct{ Leaf string }
			if err := json.Unmarshal(out.Bytes(), &st); err != nil {
				t.Fatal(err)
			}
			if st.Leaf == "" || strings.HasPrefix(st.Leaf, "subagent:") || strings.Contains(st.Leaf, "#") {
				t.Errorf("info's leaf is %q", st.Leaf)
			}
			d := decodePage(t, exportTo(t, ExportOptions{Kind: "html", Paths: []string{p}}))
			if d.Leaf < 0 {
				t.Fatal("the page has no leaf")
			}
			if n := d.Nodes[d.Leaf]; n.ID != st.Leaf || !n.Visible {
				t.Errorf("the page's leaf is %q (%s, shown %v), info's %q", n.ID, n.Role, n.Visible, st.Leaf)
			}
		})
	}
}

// TestRealWorldInjected: in real sessions, the text Claude Code, an IDE or
// Codex put into user messages is a chip, never a user's prose, on the
// page and in the Markdown; a message of it only is not a "user" node (the
// User filter's), nor a prompt under "### User · N tool calls".
func TestRealWorldInjected(t *testing.T) {
	tags := `(?:system-reminder|ide_opened_file|command-name|command-message|command-args|local-command-stdout|task-notification|environment_context|user_instructions)`
	prose := regexp.MustCompile(`<div class="md"><p>(?:&lt;` + tags + `|Caveat: )`)
	mdProse := regexp.MustCompile(`(?m)^### User[^\n]*\n\n(?:&lt;` + tags + `|Caveat: )`)
	var files []string
	for _, g := range []string{"claude/*.jsonl", "claude/*/*.jsonl", "codex/*.jsonl"} {
		m, _ := filepath.Glob(filepath.Join(shared.Dir(), "real-world", g))
		files = append(files, m...)
	}
	if len(files) == 0 {
		peers.Need(t, "no real sessions in "+filepath.Join(shared.Dir(), "real-world"))
	}
	chips := 0
	for _, p := range files {
		if strings.Contains(p, "/subagents/") || strings.HasPrefix(filepath.Base(p), "agent-") {
			continue // a run is exported with its session
		}
		d := decodePage(t, exportTo(t, ExportOptions{Kind: "html", Paths: []string{p}}))
		for i, n := range d.Nodes {
			if m := prose.FindString(n.HTML); m != "" {
				t.Errorf("%s: node %d (%s) shows injected text as prose: %q", filepath.Base(p), i, n.Role, m)
			}
			chips += strings.Count(n.HTML, `class="chip-tag"`)
		}
		md := exportTo(t, ExportOptions{Kind: "markdown", Tools: "none", Paths: []string{p}})
		if m := mdProse.FindAllString(md, 3); len(m) > 0 {
			t.Errorf("%s: injected text as a user's prose in the Markdown: %q", filepath.Base(p), m)
		}
	}
	if chips == 0 {
		t.Error("no chip on any page")
	}
}

// TestRealWorldCompactionRun: Claude Code's compaction agent's run
// (agent-acompact-*) is shown inside the compaction it wrote, on the page
// and in the Markdown, not as a sub-agent whose tool call was not found.
func TestRealWorldCompactionRun(t *testing.T) {
	p := realSession(t, spotterSession)
	d := decodePage(t, exportTo(t, ExportOptions{Kind: "html", Paths: []string{p}}))
	found := false
	for _, raw := range d.Runs {
		var r struct {
			ID, Label string
			Host      int
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.ID, "acompact") {
			continue
		}
		found = true
		if r.Host < 0 || d.Nodes[r.Host].Role != "compaction" || r.Label != "compaction" {
			t.Errorf("the compaction's run: host %d (%s), label %q", r.Host, d.Nodes[max(r.Host, 0)].Role, r.Label)
		}
	}
	if !found {
		t.Fatal("no acompact run on the page")
	}
	md := exportTo(t, ExportOptions{Kind: "markdown", Paths: []string{p}})
	if lost, ok := strings.CutPrefix(md[strings.Index(md, "\n## Sub-agent runs whose tool call was not found")+1:], "## Sub-agent runs"); ok && strings.Contains(lost, "acompact") {
		t.Error("the compaction's run is under the runs whose call is not found")
	}
	c := strings.Index(md, "\n### Compaction")
	if f := strings.Index(md, "<summary>Sub-agent: compaction — the agent that wrote this summary</summary>"); c < 0 || f < c {
		t.Error("the compaction's run is not inside the compaction in the Markdown")
	}
}
