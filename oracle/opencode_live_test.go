package oracle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/convo"
	"github.com/sesstool/sesstool/internal/testkit/mockmodel"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/session"
)

// ocInfo is the part of `info --output json` the tests compare.
type ocInfo struct {
	ID      string         `json:"id"`
	Format  string         `json:"format"`
	Version string         `json:"version"`
	Roles   map[string]int `json:"roles"`
	Tokens  struct {
		Input  int `json:"input"`
		Output int `json:"output"`
	} `json:"tokens"`
}

func infoOf(t *testing.T, path string, args ...string) []ocInfo {
	t.Helper()
	out := sesstool(t, append(append([]string{"info", "--output", "json"}, args...), path)...)
	var infos []ocInfo
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var i ocInfo
		if err := dec.Decode(&i); err != nil {
			t.Fatalf("info output: %v\n%s", err, out)
		}
		infos = append(infos, i)
	}
	return infos
}

// validateClean fails the test unless path validates with no finding.
func validateNoFindings(t *testing.T, path string) {
	t.Helper()
	out, errOut, code := run(t, "validate", "--output", "json", path)
	var v struct {
		Summary struct{ Errors, Warnings int } `json:"summary"`
	}
	if err := json.Unmarshal([]byte(ocLastLine(out)), &v); err != nil || code != 0 || v.Summary.Errors != 0 || v.Summary.Warnings != 0 {
		t.Fatalf("validate %s: exit %d, %+v\n%s%s", path, code, v.Summary, out, errOut)
	}
}

func ocLastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// ocToolCalls counts the tool calls of a session as sesstool reads it.
func ocToolCalls(s *session.Session) int {
	n := 0
	for _, e := range s.Entries {
		if e.Message == nil {
			continue
		}
		for _, b := range e.Message.Content {
			if b.Type == session.BlockToolCall {
				n++
			}
		}
	}
	return n
}

// lintRequests fails the test for any conversation request the real
// service would refuse.
func lintRequests(t *testing.T, reqs []mockmodel.ChatRequest) {
	t.Helper()
	for i, r := range reqs {
		for _, p := range mockmodel.LintChat(r) {
			t.Errorf("request %d: %s", i, p)
		}
	}
}

// OpenCode 1.18.33 runs the script once; what it writes (opencode.db) is
// read as OpenCode at its version, validates without a finding and counts
// what the script did. Then, as the control of the resume tests, OpenCode
// continues its own session: its first request carries the whole session,
// and afterwards the database still validates and converts.
func TestOpenCodeLive(t *testing.T) {
	e := newOCEnv(t)
	sc := e.mock.Script
	// the version that runs: the pinned one, or the one
	// scripts/agents-latest tries
	version := strings.TrimSpace(e.run(t, "--version").Stdout)
	if os.Getenv("SESSTOOL_OPENCODE_AGENT") == "" && version != peers.OpenCodeAgentVersion {
		t.Fatalf("opencode --version says %q, want %s", version, peers.OpenCodeAgentVersion)
	}
	e.run(t, "run", "Print a greeting with a shell command.")
	if out := os.Getenv("SESSTOOL_AGENT_OUT"); out != "" {
		// for scripts/agents-latest: the database as OpenCode left it
		dir := filepath.Join(out, "opencode-"+version)
		for _, f := range []string{"opencode.db", "opencode.db-wal"} {
			if b, err := os.ReadFile(filepath.Join(e.dataDir(), f)); err == nil {
				_ = os.MkdirAll(dir, 0o755)
				_ = os.WriteFile(filepath.Join(dir, f), b, 0o644)
			}
		}
	}

	if got := strings.TrimSpace(sesstool(t, "detect", e.db())); got != e.db()+": opencode v"+version {
		t.Errorf("detect: %q", got)
	}
	validateNoFindings(t, e.db())
	infos := infoOf(t, e.db())
	if len(infos) != 1 {
		t.Fatalf("info: %d sessions, want 1", len(infos))
	}
	in := infos[0]
	// One prompt; two replies (the tool call, the final text); the tool's
	// result; each reply's usage.
	want := map[string]int{"user": 1, "assistant": 2, "tool": 1}
	if in.Format != "opencode" || in.Version != version || !sameCounts(in.Roles, want) ||
		in.Tokens.Input != 2*sc.InputTokens || in.Tokens.Output != 2*sc.OutputTokens {
		t.Errorf("info: %+v; want opencode %s, roles %v, tokens %d/%d", in, version, want, 2*sc.InputTokens, 2*sc.OutputTokens)
	}
	ss := convo.Sessions(t, "opencode", e.db())
	if len(ss) != 1 || ocToolCalls(ss[0]) != 1 {
		t.Fatalf("read %d sessions; want 1 with 1 tool call", len(ss))
	}
	reqs := conversationRequests(t, e.mock)
	if len(reqs) != 2 {
		t.Fatalf("%d conversation requests, want 2 (the call, the final)", len(reqs))
	}
	lintRequests(t, reqs)
	if len(e.mock.Requests()) != 3 {
		t.Errorf("%d requests to the mock, want 3 (title, call, final)", len(e.mock.Requests()))
	}

	t.Run("control: OpenCode resumes its own session", func(t *testing.T) {
		short.Skip(t, "the control tells a change in the agent from ours when a resume test fails; the short loop keeps the resume of a converted session")
		expected := convo.Expected(ss[0])
		before := e.mock.Count()
		e.run(t, "run", "--session", in.ID, "continue")
		ocCheckResumed(t, e, before, expected, in.ID)
	})
}

func sameCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}

// ocCheckResumed checks a resume: the first conversation request after the
// first `before` requests carries every expected item in order and passes
// the linter, and the database still validates and converts back.
func ocCheckResumed(t *testing.T, e *ocEnv, before int, expected []convo.Item, id string) {
	t.Helper()
	var first *mockmodel.ChatRequest
	for _, r := range e.mock.Requests()[before:] {
		req, err := mockmodel.ParseChat(r.Body)
		if err != nil {
			t.Fatal(err)
		}
		if !mockmodel.ChatSide(req) {
			first = &req
			break
		}
	}
	if first == nil {
		t.Fatal("the resume sent the model no conversation")
	}
	if len(expected) == 0 {
		t.Fatal("the source has no conversation to look for")
	}
	if d := os.Getenv("SESSTOOL_ORACLE_DUMP"); d != "" {
		// a debugging aid: what was expected and what the agent sent
		b, _ := json.MarshalIndent(map[string]any{"expected": expected, "request": first}, "", " ")
		_ = os.WriteFile(filepath.Join(d, strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())+".json"), b, 0o644)
	}
	if miss := missingByKind(expected, chatItems(*first)); len(miss) > 0 {
		t.Errorf("the resumed request lacks %d of %d items, first %v; it carries %v", len(miss), len(expected), miss[0], chatItems(*first))
	}
	lintRequests(t, []mockmodel.ChatRequest{*first})
	validateNoFindings(t, e.db())
	out := t.TempDir() + "/back.jsonl"
	sesstool(t, "convert", "--session", id, "--to", "tree", "-o", out, e.db())
	validateNoFindings(t, out)
}
