// Package markdown renders the active path of a session as a readable
// Markdown transcript: messages as sections, thinking and tool calls (with
// their results) in <details> blocks, for pasting into an issue or an LLM.
package markdown

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

// Write renders t's active path, each sub-agent run inside its parent, with
// every tool call in full.
func Write(w io.Writer, t *transcript.Transcript) error {
	return WriteTools(w, t, ToolsFull)
}

// WriteTools renders t's active path, showing tool calls as tools says:
// each sub-agent run inside the call that started it, and the runs whose
// call is not found at the end.
func WriteTools(w io.Writer, t *transcript.Transcript, tools Tools) error {
	at := func(i int) *session.Entry { return t.S.Entries[i] }
	x := start(w, t, tools, func(id string) *session.Entry { return t.Results[id] }, at)
	for _, i := range t.Shown() {
		x.entryAt(i, t.S.Entries[i])
	}
	for _, r := range t.Orphans() {
		x.orphan(r)
	}
	return x.w.Flush()
}

// start writes the heading with the session's facts and returns the
// writer of the entries; result finds the result that answers a call, at
// the entry at an index of the session (a run's).
func start(w io.Writer, t *transcript.Transcript, tools Tools, result func(id string) *session.Entry, at func(i int) *session.Entry) *writer {
	bw := bufio.NewWriter(w)
	x := &writer{w: bw, t: t, tools: tools, result: result, at: at, hosted: t.HostedRuns(), runsAt: t.RunsAt(), prompts: t.Prompts(), idx: -1}
	m := t.S.Meta
	title := t.Title()
	fmt.Fprintf(bw, "# %s\n\n", plain(title))
	st := t.Stats()
	item := func(k, v string) {
		if v != "" {
			fmt.Fprintf(bw, "- **%s:** %s\n", k, plain(v))
		}
	}
	item("Session", m.ID)
	item("Directory", m.Cwd)
	if p := m.Parent; p != nil {
		item("Parent session", strings.TrimSpace(p.SessionID+" "+p.Path))
		item("Forked at", p.EntryID)
	}
	if !m.Created.T.IsZero() {
		item("Created", m.Created.T.UTC().Format(time.DateTime)+" UTC")
	}
	if d := t.Duration(); d > 0 {
		item("Duration", d.Round(time.Second).String())
	}
	item("Models", strings.Join(st.Models, ", "))
	item("Tokens", fmt.Sprintf("in %s, out %s, cache read %s, cache write %s", thousands(st.Input), thousands(st.Output), thousands(st.CacheRead), thousands(st.CacheWrite)))
	if st.HasCost {
		item("Cost", fmt.Sprintf("$%.4f", st.Cost))
	} else {
		item("Cost", "— (not recorded)")
	}
	if st.Branches > 1 && t.Leaf != nil {
		item("Branch", fmt.Sprintf("ending at %s (one of %d)", t.Leaf.ID, st.Branches))
	}
	bw.WriteString("\n")
	if p := m.Parent; p != nil && strings.TrimSpace(p.Summary) != "" {
		details(bw, "Summary of the parent branch", safeMarkdown(p.Summary)+"\n")
	}
	return x
}

// writer is one transcript being written.
type writer struct {
	w      *bufio.Writer
	t      *transcript.Transcript
	tools  Tools
	result func(id string) *session.Entry
	at     func(i int) *session.Entry
	hosted map[string][]*transcript.Run // call id -> the runs it started
	runsAt map[int][]*transcript.Run    // entry index -> the runs shown inside it (a compaction's)
	idx    int                          // the index of the entry being written, -1 inside a run
	// prompts: what followed each prompt, said under its heading
	prompts map[string]transcript.PromptStat
	depth   int  // how many runs the entry being written is inside
	lost    bool // the heading of the runs whose call is not found is written
}

// entryAt writes the i-th entry of the session, of the main conversation,
// and then the runs shown inside it (a compaction's).
func (x *writer) entryAt(i int, e *session.Entry) {
	x.idx = i
	x.entry(e)
	x.idx = -1
	for _, r := range x.runsAt[i] {
		x.run(r, "", "the agent that wrote this summary")
	}
}

func (x *writer) entry(e *session.Entry) {
	w, t := x.w, x.t
	if n := session.Note(e); n != "" {
		// a record its layout shows as a line: a note, not a section
		fmt.Fprintf(w, "_— %s —_\n\n", plain(n))
		return
	}
	head := heading(e)
	if p, ok := x.prompts[e.ID]; ok && e.Message != nil && e.Message.Role == session.RoleUser && x.depth == 0 {
		head += " · " + p.Summary()
	}
	if l := t.Labels[e.ID]; l != "" {
		head += " " + codeSpan(l)
	}
	if x.depth == 0 {
		fmt.Fprintf(w, "---\n\n### %s\n\n", head)
	} else {
		fmt.Fprintf(w, "#### %s\n\n", head) // inside a run's fold
	}
	switch transcript.KindOf(e) {
	case session.KindMessage, session.KindCustomMessage:
		x.message(e.Message)
	case session.KindCompaction:
		c := e.Compaction
		details(w, "Compaction summary", safeMarkdown(c.Summary)+"\n")
	case session.KindBranchSummary:
		fmt.Fprintf(w, "_Left branch at %s._\n\n%s\n\n", plain(e.BranchSummary.FromID), safeMarkdown(strings.TrimRight(e.BranchSummary.Summary, "\n")))
	case session.KindModelChange:
		fmt.Fprintf(w, "Model → %s\n\n", codeSpan(e.ModelChange.Provider+"/"+e.ModelChange.ModelID))
	case session.KindThinkingLevel:
		lvl := "off"
		if e.ThinkingLevel != nil {
			lvl = *e.ThinkingLevel
		}
		fmt.Fprintf(w, "Thinking level → %s\n\n", plain(lvl))
	case session.KindSessionInfo:
		fmt.Fprintf(w, "Title → %s\n\n", plain(e.Title))
	case session.KindSubagent, session.KindSubagentEnd:
		s := e.Subagent
		fmt.Fprintf(w, "Sub-agent %s\n\n", plain(strings.TrimSpace(s.AgentName+" "+s.AgentType+" "+s.ID)))
		if r := strings.TrimRight(s.Result, "\n"); r != "" {
			fmt.Fprintf(w, "%s\n\n", safeMarkdown(r))
		}
	case session.KindCustom, session.KindOther:
		if e.Custom != nil && len(e.Custom.Data) > 0 {
			details(w, "data", fence(pretty(e.Custom.Data), "json"))
		}
	}
}

func heading(e *session.Entry) string {
	switch transcript.KindOf(e) {
	case session.KindMessage, session.KindCustomMessage:
		m := e.Message
		switch m.Role {
		case session.RoleUser:
			if transcript.Injected(m) {
				return "User · injected"
			}
			return "User"
		case session.RoleAssistant:
			if m.Model != "" {
				return "Assistant (" + plain(m.Model) + ")"
			}
			return "Assistant"
		case session.RoleTool:
			return "Tool result: " + plain(m.ToolName)
		case session.RoleCustom:
			return "Custom: " + plain(m.CustomType)
		case session.RoleBash:
			return "Shell"
		}
		if m.Role == "" {
			return "Message"
		}
		return plain(strings.ToUpper(string(m.Role[:1])) + string(m.Role[1:]))
	case session.KindCompaction:
		return "Compaction"
	case session.KindBranchSummary:
		return "Branch summary"
	case session.KindModelChange:
		return "Model change"
	case session.KindThinkingLevel:
		return "Thinking level"
	case session.KindSessionInfo:
		return "Title change"
	case session.KindCustom:
		return "Custom: " + plain(e.Custom.CustomType)
	case session.KindSubagent, session.KindSubagentEnd:
		return "Sub-agent"
	}
	return plain(e.Type)
}

func (x *writer) message(m *session.Message) {
	w := x.w
	if e := m.Exec; e != nil {
		x.exec(e)
	}
	if m.Role == session.RoleTool {
		x.output(m.Text(), m.IsError)
		return
	}
	for _, b := range m.Content {
		switch b.Type {
		case session.BlockText:
			if m.Role == session.RoleUser {
				userText(w, b.Text)
			} else if s := strings.TrimRight(b.Text, "\n"); s != "" {
				w.WriteString(safeMarkdown(s) + "\n\n")
			}
		case session.BlockThinking:
			details(w, "Thinking", safeMarkdown(b.Text)+"\n")
		case session.BlockImage, session.BlockFile:
			name := b.Filename
			if name == "" {
				name = b.URL
			}
			fmt.Fprintf(w, "_\\[%s %s\\]_\n\n", plain(string(b.Type)), plain(strings.TrimSpace(b.MimeType+" "+name)))
		case session.BlockToolCall:
			x.toolCall(b)
		case session.BlockToolResult:
			details(w, "Tool result", x.trimmed(b.Text, ""))
		}
	}
	if m.Error != "" {
		fmt.Fprintf(w, "> **Error:** %s\n\n", plain(m.Error))
	}
}

// details writes a collapsed block; GitHub renders Markdown inside it when
// blank lines surround the body.
func details(w *bufio.Writer, summary, body string) {
	fmt.Fprintf(w, "<details>\n<summary>%s</summary>\n\n%s\n</details>\n\n", html.EscapeString(summary), strings.TrimRight(body, "\n")+"\n")
}

// fence wraps s in a code fence longer than any backtick run inside it.
func fence(s, lang string) string {
	f := strings.Repeat("`", longerRun(s, 3))
	return f + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + f + "\n\n"
}

func pretty(v json.RawMessage) string {
	// json.Indent keeps the source's member order and spelling
	var b bytes.Buffer
	if len(v) == 0 || json.Indent(&b, v, "", "  ") != nil {
		return string(v)
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// editDiff shows an edit call's old and new text as a diff block ("" for
// other calls), since escaped JSON strings are hard to read.
func editDiff(b session.Block) string {
	var a map[string]any
	if json.Unmarshal(b.Arguments, &a) != nil {
		return ""
	}
	get := func(keys ...string) (string, bool) {
		for _, k := range keys {
			if s, ok := a[k].(string); ok {
				return s, true
			}
		}
		return "", false
	}
	old, ok1 := get("oldText", "old_string", "oldString", "old_str")
	neu, ok2 := get("newText", "new_string", "newString", "new_str")
	if !ok1 || !ok2 {
		return ""
	}
	var d strings.Builder
	for _, l := range strings.Split(old, "\n") {
		d.WriteString("-" + l + "\n")
	}
	for _, l := range strings.Split(neu, "\n") {
		d.WriteString("+" + l + "\n")
	}
	return d.String()
}

// thousands writes n with comma separators, as the page does (54,693,675).
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
