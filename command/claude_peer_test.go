package command

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format/claude"
	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
	"github.com/tidwall/gjson"
)

// sdkSees is what testdata/claude-sdk.mjs prints: the Claude Agent SDK's
// listSessions, getSessionMessages, listSubagents and getSubagentMessages.
type sdkSees struct {
	Sessions []struct {
		ID       string `json:"id"`
		Listed   bool   `json:"listed"`
		Title    string `json:"title"`
		Messages []struct {
			Type string `json:"type"`
			UUID string `json:"uuid"`
		} `json:"messages"`
		Subagents []struct {
			ID       string `json:"id"`
			Messages int    `json:"messages"`
		} `json:"subagents"`
	} `json:"sessions"`
}

// Claude Code's own reader, the Agent SDK, lists every session convert
// writes from every layout, returns its messages in order, and finds its
// sub-agents. What it returns is compared with what sesstool reads of the
// same file, by the rules SOURCES.md records of the SDK: a session
// without a title, summary, last prompt or a first prompt that is not a
// tag is not listed; messages are the user and assistant lines on the path
// to the last line, one per line, without isMeta lines, from the last
// compact_boundary on.
func TestClaudeSDKReadsWhatWeWrite(t *testing.T) {
	if !haveLayout("claude") {
		t.Skip("layout claude is not in this build")
	}
	sdk := peers.ClaudeSDK(t)
	node, err := exec.LookPath("node")
	if err != nil {
		peers.Need(t, "node is not on PATH: the Claude Agent SDK cannot run")
	}
	script, _ := filepath.Abs("testdata/claude-sdk.mjs")
	// under -short, Claude Code's own sample (sub-agents, a compaction)
	ownLayout := func(s sample) bool { return s.layout == "claude" }
	for _, s := range short.Cases(t, matrixSamples, ownLayout) {
		t.Run(s.name, func(t *testing.T) {
			if !haveLayout(s.layout) {
				t.Skipf("layout %s is not in this build", s.layout)
			}
			cfg := filepath.Join(t.TempDir(), "claude")
			convertCLI(t, ConvertOptions{From: s.layout, To: "claude", Out: cfg, Paths: []string{s.source(t)}})
			files, _ := filepath.Glob(filepath.Join(cfg, "projects", "*", "*.jsonl"))
			if len(files) == 0 {
				t.Fatal("no session file written")
			}
			var ids []string
			for _, f := range files {
				ids = append(ids, strings.TrimSuffix(filepath.Base(f), ".jsonl"))
			}
			got := runSDK(t, node, script, sdk, cfg, ids)
			for _, f := range files {
				id := strings.TrimSuffix(filepath.Base(f), ".jsonl")
				i := sdkSession(got, id)
				if i < 0 {
					t.Fatalf("%s: the SDK script did not read it", filepath.Base(f))
				}
				ss := got.Sessions[i]
				if want := sdkLists(t, f); ss.Listed != want {
					t.Errorf("%s: listed by listSessions: %v, want %v", filepath.Base(f), ss.Listed, want)
				}
				if !ss.Listed && hasPrompt(t, f) {
					t.Errorf("%s: listSessions leaves out a session with a prompt: Claude Code would not offer it", filepath.Base(f))
				}
				var uuids []string
				for _, m := range ss.Messages {
					uuids = append(uuids, m.UUID)
				}
				if d := cmp.Diff(expectedSDKMessages(t, f), uuids); d != "" {
					t.Errorf("%s: getSessionMessages (-sesstool's path +SDK):\n%s", filepath.Base(f), d)
				}
				wantSubs := subagentLines(t, f)
				gotSubs := map[string]int{}
				for _, a := range ss.Subagents {
					gotSubs[a.ID] = a.Messages
				}
				if d := cmp.Diff(wantSubs, gotSubs); d != "" {
					t.Errorf("%s: listSubagents/getSubagentMessages (-written +SDK):\n%s", filepath.Base(f), d)
				}
				if len(uuids) == 0 {
					t.Errorf("%s: getSessionMessages returns no message", filepath.Base(f))
				}
				t.Logf("%s: listed %v, %d messages, %d sub-agents, title %q", filepath.Base(f), ss.Listed, len(uuids), len(gotSubs), ss.Title)
			}
		})
	}
}

func runSDK(t *testing.T, node, script, sdk, cfg string, ids []string) sdkSees {
	t.Helper()
	cmd := exec.Command(node, append([]string{script, sdk}, ids...)...)
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR="+cfg, "XDG_CONFIG_HOME="+home)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	hung, err := hangwatch.Run(cmd, hangwatch.Default)
	out := stdout.Bytes()
	if err != nil || hung != "" {
		t.Fatalf("claude-sdk.mjs: %v %s: %s%s", err, hung, out, stderr.Bytes())
	}
	var got sdkSees
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("claude-sdk.mjs printed %q: %v", out, err)
	}
	return got
}

func sdkSession(got sdkSees, id string) int {
	for i, s := range got.Sessions {
		if s.ID == id {
			return i
		}
	}
	return -1
}

// sdkLists reports whether the SDK lists the session file f: it has a
// title, summary or last prompt line, or a first prompt not starting with a
// tag.
func sdkLists(t *testing.T, f string) bool {
	t.Helper()
	fh, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 64<<20)
	prompt := false
	for sc.Scan() {
		v := gjson.ParseBytes(sc.Bytes())
		switch v.Get("type").String() {
		case "custom-title", "ai-title", "summary", "last-prompt":
			return true
		case "user":
			if prompt || v.Get("isMeta").Bool() || v.Get("isSidechain").Bool() || v.Get("isCompactSummary").Bool() {
				continue
			}
			c := v.Get("message.content")
			text := c.String()
			if c.IsArray() {
				if c.Get("0.type").String() != "text" {
					continue // tool results are no prompt
				}
				text = c.Get("0.text").String()
			}
			prompt = true
			if !strings.HasPrefix(strings.TrimSpace(text), "<") {
				return true
			}
		}
	}
	return false
}

// hasPrompt reports whether the session file f has a prompt of the main
// conversation: a user line with text that is not marked isMeta.
func hasPrompt(t *testing.T, f string) bool {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range bytes.Split(b, []byte("\n")) {
		v := gjson.ParseBytes(l)
		if v.Get("type").String() != "user" || v.Get("isSidechain").Bool() || v.Get("isMeta").Bool() || v.Get("isCompactSummary").Bool() {
			continue
		}
		c := v.Get("message.content")
		if c.Type == gjson.String || c.Get("0.type").String() == "text" {
			return true
		}
	}
	return false
}

// expectedSDKMessages are the uuids of the user and assistant lines on
// the path sesstool reads to the session's leaf, without isMeta lines,
// from the last compaction boundary on.
func expectedSDKMessages(t *testing.T, f string) []string {
	t.Helper()
	s := sessionsOf(t, "claude", f)[0]
	var main []*session.Entry
	for _, e := range s.Entries {
		if e.Sidechain == "" {
			main = append(main, e)
		}
	}
	path, _ := convtree.ActivePath(main, s.Meta.MessageLinks)
	var out []string
	for _, e := range path {
		if e.Kind == session.KindOther && e.Custom != nil && gjson.GetBytes(e.Custom.Data, "subtype").String() == "compact_boundary" {
			out = nil
		}
		if string(e.Extra.Get("isMeta")) == "true" {
			continue
		}
		out = append(out, claude.LineUUIDs(e)...)
	}
	return out
}

// subagentLines are the sub-agent files written beside f, with their
// user and assistant lines.
func subagentLines(t *testing.T, f string) map[string]int {
	t.Helper()
	out := map[string]int{}
	subs, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(f, ".jsonl"), "subagents", "agent-*.jsonl"))
	sort.Strings(subs)
	for _, p := range subs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, l := range strings.Split(string(b), "\n") {
			if typ := gjson.Get(l, "type").String(); typ == "user" || typ == "assistant" {
				n++
			}
		}
		out[strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "agent-"), ".jsonl")] = n
	}
	return out
}
