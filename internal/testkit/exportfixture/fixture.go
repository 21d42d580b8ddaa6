// Package exportfixture builds a session in the neutral model that exercises
// everything the exporters render: two branches, labels, compaction, a
// branch summary, tool calls with results and an error, bash, an edit,
// images, thinking, model and thinking-level changes, custom messages, and
// hostile text that must be shown and never run.
package exportfixture

import (
	"encoding/json"
	"time"

	"github.com/sesstool/sesstool/session"
)

// PNG is a 1x1 image.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

// Script and Onerror are hostile strings placed in a user message and in tool output.
const (
	Script  = `<script>window.__pwned = 1</script>`
	Onerror = `<img src=x onerror="window.__pwned2 = 1">`
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func at(min int) session.Time {
	t := t0.Add(time.Duration(min) * time.Minute)
	return session.Time{T: t, Raw: t.Format(time.RFC3339)}
}

func text(s string) []session.Block { return []session.Block{{Type: session.BlockText, Text: s}} }

func usage(in, out, cr, cw int64, cost float64) *session.Usage {
	return &session.Usage{Input: in, Output: out, CacheRead: cr, CacheWrite: cw, Cost: &session.Cost{Total: cost}}
}

func call(id, name string, args any) session.Block {
	b, _ := json.Marshal(args)
	return session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: name, Arguments: b}
}

// Session returns a fresh copy of the fixture. Its default leaf is "u3"'s
// branch end ("x9"); "b1"/"b2" form the other branch, holding the word
// "quokka" that only search can find from the default view.
func Session() *session.Session {
	msg := func(id, parent string, min int, m *session.Message) *session.Entry {
		m.Time = at(min)
		return &session.Entry{Kind: session.KindMessage, Type: "message", ID: id, ParentID: parent, Time: at(min), Message: m}
	}
	tokens := int64(52000)
	high := "high"
	no := false
	entries := []*session.Entry{
		msg("u1", "", 0, &session.Message{Role: session.RoleUser, Content: text("Please fix the **parser** in `main.go`.\n\n" + Script + "\n\nThanks!")}),
		// the abandoned branch
		msg("b1", "u1", 1, &session.Message{Role: session.RoleAssistant, Provider: "anthropic", Model: "claude-sonnet-4", Content: text("Maybe rewrite it in quokka style?"), Usage: usage(100, 20, 0, 0, 0.001)}),
		msg("b2", "b1", 2, &session.Message{Role: session.RoleUser, Content: text("No, keep it simple.")}),
		// the main branch
		{Kind: session.KindBranchSummary, Type: "branch_summary", ID: "s1", ParentID: "u1", Time: at(3),
			BranchSummary: &session.BranchSummary{FromID: "b2", Summary: "Tried a **rewrite**; the user declined."}},
		{Kind: session.KindModelChange, Type: "model_change", ID: "mc", ParentID: "s1", Time: at(3),
			ModelChange: &session.ModelChange{Provider: "anthropic", ModelID: "claude-opus-4"}},
		{Kind: session.KindThinkingLevel, Type: "thinking_level_change", ID: "tl", ParentID: "mc", Time: at(3), ThinkingLevel: &high},
		msg("a1", "tl", 4, &session.Message{Role: session.RoleAssistant, Provider: "anthropic", Model: "claude-opus-4", Usage: usage(1200, 80, 3000, 500, 0.02), StopReason: "toolUse",
			Content: []session.Block{
				{Type: session.BlockThinking, Text: "The user wants the parser fixed. Read the file first."},
				{Type: session.BlockText, Text: "I'll read the file."},
				call("c1", "read", map[string]any{"path": "main.go"}),
			}}),
		msg("r1", "a1", 5, &session.Message{Role: session.RoleTool, SourceRole: "toolResult", ToolCallID: "c1", ToolName: "read",
			Content: text("package main\n\nfunc main() {}\n")}),
		msg("a2", "r1", 6, &session.Message{Role: session.RoleAssistant, Provider: "anthropic", Model: "claude-opus-4", Usage: usage(1500, 40, 4200, 0, 0.015), StopReason: "toolUse",
			Content: []session.Block{call("c2", "bash", map[string]any{"command": "go test ./..."})}}),
		msg("r2", "a2", 7, &session.Message{Role: session.RoleTool, ToolCallID: "c2", ToolName: "bash", IsError: true,
			Content: text("FAIL parser_test.go:12 " + Onerror + "\nexit status 1")}),
		msg("a3", "r2", 8, &session.Message{Role: session.RoleAssistant, Provider: "anthropic", Model: "claude-opus-4", Usage: usage(1700, 90, 5600, 300, 0.03), StopReason: "toolUse",
			Content: []session.Block{call("c3", "edit", map[string]any{"path": "main.go", "oldText": "func main() {}", "newText": "func main() {\n\tprintln(\"hi\")\n}"})}}),
		msg("r3", "a3", 9, &session.Message{Role: session.RoleTool, ToolCallID: "c3", ToolName: "edit", Content: text("Edited main.go")}),
		msg("a4", "r3", 10, &session.Message{Role: session.RoleAssistant, Provider: "anthropic", Model: "claude-opus-4", Usage: usage(1900, 120, 7000, 0, 0.04), StopReason: "stop",
			Content: text("Fixed. The zanzibar check now passes:\n\n```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```\n")}),
		{Kind: session.KindLabel, Type: "label", ID: "l1", ParentID: "a4", Time: at(11), Label: &session.Label{TargetID: "a4", Label: "fixed"}},
		{Kind: session.KindCompaction, Type: "compaction", ID: "k1", ParentID: "l1", Time: at(12),
			Compaction: &session.Compaction{Summary: "The parser was fixed in main.go.", FirstKeptID: "a4", TokensBefore: &tokens}},
		msg("u2", "k1", 13, &session.Message{Role: session.RoleUser, Content: []session.Block{
			{Type: session.BlockText, Text: "Here is a screenshot of the wombat dialog."},
			{Type: session.BlockImage, MimeType: "image/png", Data: PNG},
		}}),
		msg("x1", "u2", 14, &session.Message{Role: session.RoleBash, SourceRole: "bashExecution",
			Exec: &session.Exec{Command: "ls -la", Output: "total 8\n-rw-r--r-- 1 u u 42 main.go", ExitCode: ptr(int64(0))}}),
		{Kind: session.KindCustomMessage, Type: "custom_message", ID: "cm", ParentID: "x1", Time: at(15),
			Message: &session.Message{Role: session.RoleCustom, CustomType: "reminder", Display: &no, Content: text("Remember the style guide.")}},
		{Kind: session.KindSessionInfo, Type: "session_info", ID: "si", ParentID: "cm", Time: at(15), Title: "Parser fix"},
		{Kind: session.KindCustom, Type: "custom", ID: "cu", ParentID: "si", Time: at(15), Custom: &session.Custom{CustomType: "todo", Data: json.RawMessage(`{"items":["ship it"]}`)}},
		msg("x9", "cu", 16, &session.Message{Role: session.RoleAssistant, Provider: "anthropic", Model: "claude-opus-4", Usage: usage(2100, 30, 0, 2100, 0.01), StopReason: "stop",
			Content: text("The wombat dialog looks fine.")}),
	}
	return &session.Session{
		Meta:    session.Meta{ID: "sess-1", Title: "Fix the parser", Cwd: "/home/u/proj", Created: at(0), Version: "3"},
		Entries: entries,
	}
}

func ptr[T any](v T) *T { return &v }
