package oracle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/mockmodel"
)

// claudeSubagentPrompt is the prompt the mock gives the sub-agent: it
// tells the sub-agent's requests from the main conversation's.
const claudeSubagentPrompt = "Sub-agent task: print a greeting with the shell."

// TestClaudeSubagent runs Claude Code on a script whose first reply
// starts a sub-agent that plays the default script (a shell call, then
// the final text), and checks what it wrote: one sub-agent file beside
// the transcript, the session valid with no line type sesstool does not
// know, info's counts those played (main: the prompt, the sub-agent call
// and its result, the final text; the sub-agent: its prompt, the shell
// call and its result, the final text), and the sub-agent run read as
// attached to the call that started it.
func TestClaudeSubagent(t *testing.T) {
	home, dir := newClaudeDirs(t)
	runClaudeOn(t, mockmodel.AnthropicSubagent(claudeSubagentPrompt), home, dir,
		"-p", "Delegate a greeting to a sub-agent.", "--allowedTools", "Bash,Agent")
	file := claudeSessionFile(t, home)
	subs, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(file, ".jsonl"), "subagents", "agent-*.jsonl"))
	if len(subs) != 1 {
		t.Fatalf("sub-agent files: %v, want one", subs)
	}
	subID := strings.TrimSuffix(filepath.Base(subs[0]), ".jsonl")

	t.Run("validate", func(t *testing.T) { validateClean(t, file) })
	t.Run("info", func(t *testing.T) {
		var info struct {
			Roles map[string]int
			Kinds map[string]int
		}
		if err := json.Unmarshal([]byte(sesstool(t, "info", "--output", "json", file)), &info); err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"user": 2, "assistant": 4, "tool": 2}
		for role, n := range want {
			if info.Roles[role] != n {
				t.Errorf("info: %d %s messages, want %d (roles %v)", info.Roles[role], role, n, info.Roles)
			}
		}
		if len(info.Roles) != len(want) {
			t.Errorf("info: roles %v, want %v", info.Roles, want)
		}
		if info.Kinds["subagent"] != 1 {
			t.Errorf("info: kinds %v, want one subagent", info.Kinds)
		}
	})
	t.Run("linked", func(t *testing.T) {
		mf := filepath.Join(t.TempDir(), "m.jsonl")
		sesstool(t, "convert", "--to", "model", "-o", mf, file)
		b, err := os.ReadFile(mf)
		if err != nil {
			t.Fatal(err)
		}
		// calls by tool name and side chain ("" for the main one).
		calls := map[[2]string][]string{}
		var links []struct{ ID, ParentToolCallID string }
		for _, l := range splitLines(string(b)) {
			var e struct {
				Kind      string
				Sidechain string
				Message   *struct {
					Content []struct {
						Type       string
						ToolCallID string `json:"tool_call_id"`
						ToolName   string `json:"tool_name"`
					}
				}
				Subagent *struct {
					ID               string
					ParentToolCallID string `json:"parent_tool_call_id"`
				}
			}
			if err := json.Unmarshal([]byte(l), &e); err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			if e.Subagent != nil {
				links = append(links, struct{ ID, ParentToolCallID string }{e.Subagent.ID, e.Subagent.ParentToolCallID})
			}
			if e.Message == nil {
				continue
			}
			for _, c := range e.Message.Content {
				if c.Type == "tool_call" {
					k := [2]string{c.ToolName, e.Sidechain}
					calls[k] = append(calls[k], c.ToolCallID)
				}
			}
		}
		agent := calls[[2]string{"Agent", ""}]
		if len(agent) != 1 {
			t.Fatalf("main conversation's Agent calls: %v, want one (calls %v)", agent, calls)
		}
		if n := len(calls[[2]string{mockmodel.AnthropicMainTool, subID}]); n != 1 {
			t.Errorf("%d shell calls in the sub-agent run %s, want 1 (calls %v)", n, subID, calls)
		}
		if len(links) != 1 || links[0].ID != subID || links[0].ParentToolCallID != agent[0] {
			t.Errorf("sub-agent entries %+v, want one for %s with parent_tool_call_id %s", links, subID, agent[0])
		}
	})
}
