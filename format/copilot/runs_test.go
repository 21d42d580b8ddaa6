package copilot_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/copilot"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// runSources are sessions of other layouts with sub-agent runs: Claude
// Code's subagents/agent-*.jsonl, Gemini CLI's chats/<parent>/<id>.jsonl,
// the model's run hung off its call beside the path.
var runSources = []struct{ name, layout, path string }{
	{"claude", "claude", "../../testdata/subagents/claude"},
	{"gemini", "gemini", "../../testdata/samples/gemini/home/.gemini"},
	{"model", "model", "../../testdata/samples/model/features.model.jsonl"},
}

// runsOf is a session's runs: the messages of each run (by Sidechain, in
// order of appearance) and the tool call each was started by.
type runsOf struct {
	Messages []int
	Calls    []string
}

func readRuns(t *testing.T, r session.Reader) runsOf {
	t.Helper()
	defer r.Close()
	var out runsOf
	at := map[string]int{}
	calls := map[string]string{}
	err := session.Each(r, func(e *session.Entry) error {
		if e.Kind == session.KindSubagent && e.Subagent != nil {
			calls[e.Subagent.ID] = e.Subagent.ParentToolCallID
		}
		if e.Sidechain == "" || !e.IsMessage() {
			return nil
		}
		i, ok := at[e.Sidechain]
		if !ok {
			i = len(out.Messages)
			at[e.Sidechain] = i
			out.Messages = append(out.Messages, 0)
			out.Calls = append(out.Calls, calls[e.Sidechain])
		}
		out.Messages[i]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var updateRuns = flag.Bool("update-runs", false, "rewrite golden/runs")

// Another layout's sub-agent runs are written into Copilot's log as
// Copilot CLI 1.0.102 writes a task's run, and read back as the same runs
// (as many, the same messages each, started by the same tool call), with
// nothing counted lost of them: they were dropped, counted as
// sidechain-entry lost, and the model's run's start and end as off-path.
// The order of the events around each run is the golden
// (golden/runs/<case>.txt; -update-runs rewrites them): the call's
// tool.execution_start, subagent.started, the run's events,
// subagent.completed, then the call's tool.execution_complete.
func TestConvertedRunsRoundTrip(t *testing.T) {
	for _, tc := range runSources {
		t.Run(tc.name, func(t *testing.T) {
			f, err := registry.Lookup(tc.layout)
			if err != nil {
				t.Fatal(err)
			}
			refs, err := f.Sessions(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			var ref format.Ref
			for _, r := range refs {
				src, err := f.Open(r)
				if err != nil {
					t.Fatal(err)
				}
				if len(readRuns(t, src).Messages) > 0 {
					ref = r
					break
				}
			}
			if ref.Path == "" {
				t.Fatalf("no session with runs under %s", tc.path)
			}
			open := func() (session.Reader, error) { return f.Open(ref) }
			src, err := open()
			if err != nil {
				t.Fatal(err)
			}
			want := readRuns(t, src)

			r, err := open()
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			lost := &loss.Counter{}
			if err := convert.WriteTo(copilot.Format{}, &buf, r, format.WriteOptions{Reopen: open}, lost); err != nil {
				t.Fatalf("write: %v", err)
			}
			for _, it := range lost.Items() {
				if it.Kind == loss.Sidechain || it.Kind == loss.OffPath && tc.layout == "model" {
					t.Errorf("lost: %d %s %s (%s)", it.Count, it.Kind, it.Action, it.Reason)
				}
			}
			p := filepath.Join(t.TempDir(), "events.jsonl")
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			rep := &report.Report{}
			if err := (copilot.Format{}).Validate(p, rep, format.ValidateOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, fd := range rep.Findings() {
				t.Errorf("validate: %s", fd.Text())
			}
			back, err := (copilot.Format{}).Open(format.Ref{Path: p})
			if err != nil {
				t.Fatal(err)
			}
			got := readRuns(t, back)
			if fmt.Sprint(got.Messages) != fmt.Sprint(want.Messages) {
				t.Errorf("read back runs with %v messages, the source's have %v", got.Messages, want.Messages)
			}
			for i, c := range got.Calls {
				// a run its source started from no call (Claude Code's
				// warm-up) is named by its own id, as subagent.started
				// needs a toolCallId
				if i < len(want.Calls) && want.Calls[i] != "" && c != want.Calls[i] || c == "" {
					t.Errorf("run %d is linked to the call %q, the source's to %q", i, c, want.Calls[i])
				}
			}

			outline := eventOutline(t, buf.Bytes())
			golden := filepath.Join("golden", "runs", tc.name+".txt")
			if *updateRuns {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(outline), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			g, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if outline != string(g) {
				t.Errorf("events differ from %s\n got:\n%s\nwant:\n%s", golden, outline, g)
			}
		})
	}
}

// eventOutline is one line an event: its type, its agentId, the toolCallId
// and parentToolCallId of its data.
func eventOutline(t *testing.T, log []byte) string {
	t.Helper()
	var b strings.Builder
	for _, line := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		var ev struct {
			Type    string
			AgentID string `json:"agentId"`
			Data    struct {
				ToolCallID       string `json:"toolCallId"`
				ParentToolCallID string `json:"parentToolCallId"`
			}
		}
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		fmt.Fprintf(&b, "%s agent=%s call=%s parent=%s\n", ev.Type, ev.AgentID, ev.Data.ToolCallID, ev.Data.ParentToolCallID)
	}
	return b.String()
}
