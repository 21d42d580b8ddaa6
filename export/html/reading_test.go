package html_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/sesstool/sesstool/session"
)

// reading builds a session that exercises reading a long session (issue
// 17, points 3 to 9): long bash output, a long write, a long edit, a long
// user shell command, reads with and without a range and a failed one,
// thinking-level rows, an aborted turn, big token counts, an unsafe link,
// a fork origin, and enough turns that the tree scrolls and the search has
// hits beyond the first batch of messages.
func reading() *session.Session {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var es []*session.Entry
	parent := ""
	n := 0
	add := func(e *session.Entry) *session.Entry {
		n++
		if e.ID == "" {
			e.ID = fmt.Sprintf("e%03d", n)
		}
		e.ParentID = parent
		tm := t0.Add(time.Duration(n) * time.Second)
		e.Time = session.Time{T: tm, Raw: tm.Format(time.RFC3339)}
		if e.Kind == "" {
			e.Kind, e.Type = session.KindMessage, "message"
		}
		es = append(es, e)
		parent = e.ID
		return e
	}
	msg := func(id string, m *session.Message) *session.Entry { return add(&session.Entry{ID: id, Message: m}) }
	text := func(s string) []session.Block { return []session.Block{{Type: session.BlockText, Text: s}} }
	lines := func(prefix string, k int) string {
		var b strings.Builder
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "%s %d\n", prefix, i)
		}
		return b.String()
	}
	call := func(id, name string, args map[string]any) session.Block {
		raw, _ := json.Marshal(args)
		return session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: name, Arguments: raw}
	}
	turn := func(id string, u *session.Usage, stop string, blocks ...session.Block) {
		msg(id, &session.Message{Role: session.RoleAssistant, Provider: "openai", Model: "gpt-5", Usage: u, StopReason: stop, Content: blocks})
	}
	result := func(callID, name, out string, isErr bool) {
		msg("", &session.Message{Role: session.RoleTool, ToolCallID: callID, ToolName: name, IsError: isErr, Content: text(out)})
	}
	use := func(in int64) *session.Usage {
		return &session.Usage{Input: in, Output: 1200, Cost: &session.Cost{Total: 1.25}}
	}
	high := "high"
	msg("u1", &session.Message{Role: session.RoleUser, Content: text("Count to fifty, see [the docs](javascript:alert(1)) and <javascript:void(0)>.")})
	add(&session.Entry{Kind: session.KindThinkingLevel, Type: "thinking_level_change", ThinkingLevel: &high})
	turn("a1", use(54693675), "tool_use", call("c1", "bash", map[string]any{"command": "seq 1 50"}))
	result("c1", "bash", lines("line", 50), false)
	turn("a2", use(1000), "tool_use", call("c2", "write", map[string]any{"path": "notes/big.txt", "content": lines("note", 40)}))
	result("c2", "write", "written", false)
	turn("a3", use(2000), "tool_use", call("c3", "edit", map[string]any{"path": "src/x.go", "oldText": lines("old", 20), "newText": lines("new", 20)}))
	result("c3", "edit", "edited", false)
	turn("a4", nil, "aborted", session.Block{Type: session.BlockText, Text: "Stopped."})
	msg("x1", &session.Message{Role: session.RoleBash, SourceRole: "bashExecution", Exec: &session.Exec{Command: "yes | head -30", Output: lines("y", 30)}})
	turn("a5", use(3000), "tool_use", call("c5", "read", map[string]any{"path": "src/big.go", "offset": 100, "limit": 50}))
	result("c5", "read", lines("// code", 50), false)
	turn("a6", use(3500), "tool_use", call("c6", "read", map[string]any{"path": "src/missing.go"}))
	result("c6", "read", "ENOENT: no such file or directory, open 'src/missing.go'", true)
	for i := 0; i < 40; i++ {
		add(&session.Entry{Kind: session.KindThinkingLevel, Type: "thinking_level_change", ThinkingLevel: &high})
		msg("", &session.Message{Role: session.RoleUser, Content: text(fmt.Sprintf("Question %d about the parser.", i))})
		word := "plain"
		if i == 25 || i == 38 {
			word = "pangolin" // only in messages past the first batch
		}
		turn(fmt.Sprintf("t%02d", i), use(int64(4000+i)), "stop", session.Block{Type: session.BlockText, Text: "Answer about the " + word + " and a long line of prose that goes on " + strings.Repeat("and on ", 40)})
	}
	return &session.Session{
		Meta: session.Meta{ID: "fork-1", Title: "Reading a long session", Cwd: "/home/u/proj", Created: es[0].Time, Version: "3",
			Parent: &session.Parent{SessionID: "origin-42", EntryID: "m17", Summary: "Tried the **fast** path first."}},
		Entries: es,
	}
}
