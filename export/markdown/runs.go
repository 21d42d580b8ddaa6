package markdown

import (
	"encoding/json"
	"fmt"
	"html"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

// maxDepth bounds runs inside runs, against a session whose runs name
// each other's calls.
const maxDepth = 16

// run writes a sub-agent run as a fold: its agent and the description of
// the call that started it, then its entries as the main conversation's,
// under smaller headings.
func (x *writer) run(r *transcript.Run, typ, desc string) {
	if x.depth >= maxDepth {
		return
	}
	label := "Sub-agent: " + oneLine(r.Label(typ))
	if desc != "" {
		label += " — " + desc
	}
	fmt.Fprintf(x.w, "<details>\n<summary>%s</summary>\n\n", html.EscapeString(label))
	x.depth++
	for _, i := range r.Entries {
		if k := x.t.S.Entries[i]; x.t.Visible(k) && !x.t.InRun(i) {
			if e := x.at(i); e != nil {
				x.entry(e)
			}
		}
	}
	x.depth--
	x.w.WriteString("</details>\n\n")
}

// runsOf writes the runs call b started.
func (x *writer) runsOf(b session.Block) {
	for _, r := range x.hosted[b.ToolCallID] {
		x.run(r, argument(b, "subagent_type", "agent_type"), argument(b, "description", "message", "prompt"))
	}
}

// orphan writes a run whose call is not found, after the conversation,
// the first under a heading saying so.
func (x *writer) orphan(r *transcript.Run) {
	if !x.lost {
		x.w.WriteString("---\n\n## Sub-agent runs whose tool call was not found\n\n")
		x.lost = true
	}
	desc := ""
	if r.Call != "" {
		desc = "started by call " + oneLine(r.Call)
	}
	x.run(r, "", desc)
}

// argument is the first of a call's string arguments keys names, on one
// line, cut to keyArgMax runes: what a call that starts a sub-agent says it
// is for (Claude Code's Task description, Codex's spawn_agent message) and
// the agent's type.
func argument(b session.Block, keys ...string) string {
	var args map[string]json.RawMessage
	if json.Unmarshal(b.Arguments, &args) != nil {
		return ""
	}
	for _, k := range keys {
		var v string
		if json.Unmarshal(args[k], &v) != nil {
			continue
		}
		if v = oneLine(v); v != "" {
			if r := []rune(v); len(r) > keyArgMax {
				v = string(r[:keyArgMax]) + "…"
			}
			return v
		}
	}
	return ""
}

// runEntries appends to need the entries writing entry i reads: i, the
// results of its calls and, for each run a call of it started, the run's
// shown entries and theirs. index finds a result entry's index.
func runEntries(t *transcript.Transcript, hosted map[string][]*transcript.Run, index map[*session.Entry]int32, i int, need []int32, depth int) []int32 {
	need = append(need, int32(i))
	eachCall(t.S.Entries[i], func(id string) {
		if r := t.Results[id]; r != nil {
			need = append(need, index[r])
		}
		if depth >= maxDepth {
			return
		}
		for _, r := range hosted[id] {
			need = runNeeds(t, hosted, index, r, need, depth+1)
		}
	})
	return need
}

// runNeeds appends the entries writing run r reads.
func runNeeds(t *transcript.Transcript, hosted map[string][]*transcript.Run, index map[*session.Entry]int32, r *transcript.Run, need []int32, depth int) []int32 {
	for _, j := range r.Entries {
		if k := t.S.Entries[j]; t.Visible(k) && !t.InRun(j) {
			need = runEntries(t, hosted, index, j, need, depth)
		}
	}
	return need
}
