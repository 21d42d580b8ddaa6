package gemini_test

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/claude"
	"github.com/sesstool/sesstool/format/gemini"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// claudeWithRuns are Claude Code sessions with sub-agent runs: the
// project's sample and a real one from ../shared (skipped without it).
func claudeWithRuns(t *testing.T) map[string]string {
	out := map[string]string{"sample": "../../testdata/samples/claude/store/projects/-home-dev-app/1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f9.jsonl"}
	real := filepath.Join(shared.Dir(), "real-world", "claude", "codemie-ai+codemie-code__incremental-subagents", "e9fb405b-169f-40eb-9396-7e75076f045d.jsonl")
	if _, err := os.Stat(real); err == nil {
		out["real-world"] = real
	} else {
		t.Logf("no %s (set SESSTOOL_SHARED): the real session is not converted", real)
	}
	return out
}

// runTexts are a session's sub-agent runs, by the tool call that started
// each: the user and assistant texts in order, the tool calls' names in
// order, and the tool results sorted (Gemini CLI records a reply's results
// in the order of its calls, and one reply for the lines Claude Code
// writes per block).
func runTexts(t *testing.T, r session.Reader) map[string][]string {
	t.Helper()
	defer r.Close()
	type run struct{ texts, calls, results []string }
	runs := map[string]*run{}
	name := map[string]string{} // sidechain -> the call that started it
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		if e.Kind == session.KindSubagent && e.Subagent != nil {
			name[e.Subagent.ID] = "call " + e.Subagent.ParentToolCallID
		}
		if e.Sidechain == "" || e.Message == nil {
			continue
		}
		key, ok := name[e.Sidechain]
		if !ok {
			t.Fatalf("run %s has no subagent entry before it", e.Sidechain)
		}
		if runs[key] == nil {
			runs[key] = &run{}
		}
		x, m := runs[key], e.Message
		for _, b := range m.Content {
			if b.Type == session.BlockToolCall {
				x.calls = append(x.calls, b.ToolName)
			}
		}
		switch text := m.Text(); {
		case m.Role == session.RoleTool:
			x.results = append(x.results, text)
		case text != "":
			x.texts = append(x.texts, string(m.Role)+": "+text)
		}
	}
	out := map[string][]string{}
	for k, x := range runs {
		sort.Strings(x.results)
		out[k] = append(append(x.texts, "calls: "+strings.Join(x.calls, ",")), x.results...)
	}
	return out
}

// TestSubagentRunsIntoHome: a session from another layout written into a
// Gemini CLI home keeps its sub-agent runs, each in
// chats/<parentSessionId>/<sessionId>.jsonl as the agent writes a
// sub-agent's session, linked from the call that started it; the home
// validates and reads back the same runs, and nothing of them is counted
// lost.
func TestSubagentRunsIntoHome(t *testing.T) {
	for name, src := range claudeWithRuns(t) {
		t.Run(name, func(t *testing.T) {
			want := runTexts(t, openClaude(t, src))
			if len(want) == 0 {
				t.Fatalf("%s has no sub-agent run", src)
			}
			home := t.TempDir()
			r := openClaude(t, src)
			out := filepath.Join(home, filepath.FromSlash(gemini.Format{}.Place(r.Meta())))
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
			lost := &loss.Counter{}
			paths, err := convert.Write(gemini.Format{}, r, out, format.WriteOptions{Home: true}, lost)
			if err != nil {
				t.Fatal(err)
			}
			if len(paths) != 1+len(want) {
				t.Errorf("wrote %d files, want the session's and %d runs': %v", len(paths), len(want), paths)
			}
			for _, it := range lost.Items() {
				if it.Kind == loss.Sidechain || it.Kind == "subagent-entry" || it.Kind == "subagent_end-entry" {
					t.Errorf("counted lost: %+v", it)
				}
			}
			sid := strings.TrimSuffix(filepath.Base(out), ".jsonl")
			subs, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "*", "*.jsonl"))
			if len(subs) != len(want) {
				t.Fatalf("%d sub-agent files beside %s, want %d", len(subs), sid, len(want))
			}
			for _, p := range subs {
				meta := firstLine(t, p)
				if !strings.Contains(meta, `"kind":"subagent"`) || !strings.Contains(meta, `"directories":[`) {
					t.Errorf("%s: metadata %s is not a sub-agent's", p, meta)
				}
			}
			rep := &report.Report{}
			if err := (gemini.Format{}).Validate(home, rep, format.ValidateOptions{}); err != nil {
				t.Fatal(err)
			}
			if n := len(rep.Findings()); n > 0 {
				t.Errorf("the home has %d findings: %v", n, rep.Findings())
			}
			got := runTexts(t, open(t, out))
			if len(got) != len(want) {
				t.Fatalf("read back %d runs %v, want %d %v", len(got), keys(got), len(want), keys(want))
			}
			for k, w := range want {
				if strings.Join(got[k], "\n") != strings.Join(w, "\n") {
					t.Errorf("run of %s read back as\n%q\nwant\n%q", k, got[k], w)
				}
			}
		})
	}
}

// TestSubagentRunsSingleFile: one .jsonl file has no room for the runs:
// each of their entries is counted lost, saying why.
func TestSubagentRunsSingleFile(t *testing.T) {
	src := claudeWithRuns(t)["sample"]
	lost := &loss.Counter{}
	b := write(t, openClaude(t, src), lost)
	if strings.Contains(string(b), `"agentId"`) {
		t.Errorf("a single file names a run it does not hold")
	}
	n := 0
	for _, it := range lost.Items() {
		if it.Kind == loss.Sidechain {
			n += it.Count
			if !strings.Contains(it.Reason, "home") {
				t.Errorf("reason %q does not say where the runs are kept", it.Reason)
			}
		}
	}
	if n == 0 {
		t.Errorf("no sub-agent entry counted lost: %+v", lost.Items())
	}
}

func openClaude(t *testing.T, p string) session.Reader {
	t.Helper()
	r, err := (claude.Format{}).Open(format.Ref{Path: p})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func firstLine(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitN(string(b), "\n", 2)[0]
}

func keys(m map[string][]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A single file holds no sub-agent run: mapping drops and counts a run of
// another layout's session, and one that reaches the writer unadapted is an
// error naming its entry, never skipped.
func TestSingleFileHoldsNoRun(t *testing.T) {
	text := func(id, side string, r session.Role) *session.Entry {
		return &session.Entry{ID: id, Kind: session.KindMessage, Sidechain: side, Source: session.Source{Origin: "tree"},
			Message: &session.Message{Role: r, Content: []session.Block{{Type: session.BlockText, Text: id}}}}
	}
	s := &session.Session{Meta: session.Meta{ID: "s", Source: session.Source{Origin: "tree"}},
		Entries: []*session.Entry{text("a", "", session.RoleUser), text("b", "agent-1", session.RoleUser), text("c", "", session.RoleAssistant)}}
	err := gemini.Format{}.WriteTo(io.Discard, &session.SliceReader{S: s}, format.WriteOptions{})
	if err == nil || !strings.Contains(err.Error(), `"b"`) {
		t.Errorf("unadapted run into a single file: err = %v, want one naming entry b", err)
	}
	lost := &loss.Counter{}
	if err := convert.WriteTo(gemini.Format{}, io.Discard, &session.SliceReader{S: s}, format.WriteOptions{}, lost); err != nil {
		t.Fatal(err)
	}
	if items := lost.Items(); len(items) != 1 || items[0].Kind != loss.Sidechain || items[0].Count != 1 {
		t.Errorf("losses %v, want the run's entry dropped", items)
	}
}

// What mapping drops or answers for Gemini CLI (caps: CustomMessages,
// CallsNeedResults) is an error naming the entry when it reaches the
// writer unadapted, never skipped or answered silently.
func TestWriterRefusesUnadapted(t *testing.T) {
	text := func(id string, k session.Kind, r session.Role, blocks ...session.Block) *session.Entry {
		return &session.Entry{ID: id, Kind: k, Source: session.Source{Origin: "tree"},
			Message: &session.Message{Role: r, Content: append([]session.Block{{Type: session.BlockText, Text: id}}, blocks...)}}
	}
	call := session.Block{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "run"}
	cases := []struct {
		name    string
		entries []*session.Entry
		id      string
	}{
		{"an extension message", []*session.Entry{text("a", session.KindMessage, session.RoleUser), text("x", session.KindCustomMessage, session.RoleUser)}, "x"},
		{"a call with no result", []*session.Entry{text("a", session.KindMessage, session.RoleUser), text("b", session.KindMessage, session.RoleAssistant, call), text("d", session.KindMessage, session.RoleUser)}, "b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{ID: "s", Source: session.Source{Origin: "tree"}}, Entries: c.entries}
			err := gemini.Format{}.WriteTo(io.Discard, &session.SliceReader{S: s}, format.WriteOptions{})
			if err == nil || !strings.Contains(err.Error(), `"`+c.id+`"`) {
				t.Errorf("err = %v, want one naming entry %s", err, c.id)
			}
		})
	}
}
