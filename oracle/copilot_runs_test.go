package oracle

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/convo"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/session"
)

// copilotRunSources are Claude Code sessions with sub-agent runs
// (subagents/agent-*.jsonl): the project's fixture (a run started by a
// Task call and a warm-up run no call started) and a real session with
// five runs started by Task calls.
var copilotRunSources = []source{
	{name: "claude-subagents", layout: "claude", path: "testdata/subagents/claude"},
	{name: "real-claude-5-runs", layout: "claude", path: "real-world/claude/moredip+session-share__0ccf1a04", shared: true},
}

// runMessages is the number of messages of each sub-agent run of s, sorted.
func runMessages(s *session.Session) []int {
	n := map[string]int{}
	for _, e := range s.Entries {
		if e.Sidechain != "" && e.IsMessage() {
			n[e.Sidechain]++
		}
	}
	var out []int
	for _, c := range n {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// A Claude Code session's sub-agent runs, converted into a Copilot home,
// are written into Copilot's log as its own runs, and Copilot CLI 1.0.102
// resumes the session: its first request carries the whole active path and
// passes the linter, and afterwards the log validates, still holds every
// run with its messages, and converts back to Claude Code with each run in
// a subagents/agent-*.jsonl file again. The runs were dropped before.
func TestCopilotResumeRuns(t *testing.T) {
	// Under -short the project's fixture (both kinds of run) stands for
	// the real session's five runs.
	eachSource(t, short.Cases(t, copilotRunSources, nil), func(t *testing.T, src source, path string, s *session.Session) {
		want := runMessages(s)
		if len(want) == 0 {
			t.Fatalf("%s has no sub-agent runs", path)
		}
		e := newCopilotEnv(t)
		log := copilotResume(t, e, src, path, s)
		copilotCheckResumed(t, e, 0, copilotExpected(s), log)

		resumed := convo.Sessions(t, "copilot", log)
		if len(resumed) != 1 {
			t.Fatalf("%s reads as %d sessions", log, len(resumed))
		}
		if got := runMessages(resumed[0]); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("after the resume the log holds runs of %v messages, the source %v", got, want)
		}
		back := filepath.Join(t.TempDir(), "claude")
		sesstool(t, "convert", "--to", "claude", "-o", back+"/", log)
		files, err := filepath.Glob(filepath.Join(back, "projects", "*", "*", "subagents", "agent-*.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != len(want) {
			t.Errorf("converted back to Claude Code, %d sub-agent files %v, want %d", len(files), files, len(want))
		}
		var got []int
		for _, bs := range convo.Sessions(t, "claude", back) {
			got = append(got, runMessages(bs)...)
		}
		slices.Sort(got)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("converted back, runs of %v messages, the source %v", got, want)
		}
	})
}
