package exportfixture

import (
	"encoding/json"
	"strings"

	"github.com/sesstool/sesstool/session"
)

// Hostile is HTML that would run script, load something or hide text if a
// renderer took it as markup: each must show as text, unchanged. None holds
// Markdown syntax, so it shows the same where Markdown is kept.
var Hostile = []string{
	`<script>window.pwned=1</script>`,
	`<img src=x onerror="window.pwned=2">`,
	`<iframe src="javascript:window.pwned=3"></iframe>`,
	`<a href="javascript:window.pwned=4">click me</a>`,
	`<svg onload="window.pwned=5"><circle r="9"/></svg>`,
	`<details open ontoggle="window.pwned=6">open</details>`,
	`<style>body{display:none}</style><!-- hidden -->`,
	`&lt;b&gt; &amp;amp; &#60;i&#62; &copy; &#x3C;script&#x3E;`,
	`<https://example.invalid/auto> <javascript:window.pwned=7>`,
}

// HostileMarkdown is Markdown that would make a link run script or an image
// load from the network: links keep only web and mail addresses, images
// become links.
var HostileMarkdown = []string{
	`[js link](javascript:window.pwned=8)`,
	`[js ref][evil]`,
	"[evil]: JavaScript:window.pwned=9",
	`[escaped colon](javascript\:window.pwned=10)`,
	`![tracker](https://example.invalid/pixel.png)`,
	`<img src="https://example.invalid/pixel2.png">`,
	// the scheme spelt with character references: checked before they are
	// resolved, each would pass as a relative address
	`[entity link](&#106;avascript:window.pwned=11)`,
	`[hex entity](&#x6A;avascript&colon;window.pwned=12)`,
	`[tab entity](java&Tab;script:window.pwned=13)`,
	`[pointed](<&#106;avascript:window.pwned=14>)`,
	`[entity ref][evil2]`,
	"[evil2]: &#74;avascript:window.pwned=15",
	`![entity image](&#106;avascript:window.pwned=16)`,
}

// HostileAll is every hostile string on one line.
func HostileAll() string {
	return strings.Join(append(append([]string{}, Hostile...), HostileMarkdown...), " ")
}

// HostileSession is a session with hostile text in every field an exporter
// shows: title, cwd, ids, model and provider names, user, assistant and
// thinking text, tool names, arguments and output, errors, labels, custom
// types, summaries, sub-agents, file names, title changes, shell commands.
func HostileSession() *session.Session {
	all := HostileAll()
	md := strings.Join(Hostile, "\n\n") + "\n\n" + strings.Join(HostileMarkdown, "\n\n")
	args, _ := json.Marshal(map[string]string{"command": all, "path": all})
	level := all
	msg := func(id, parent string, min int, m *session.Message) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, Type: "message", ID: id, ParentID: parent, Time: at(min), Message: m}
	}
	entries := []*session.Entry{
		msg("h1", "", 0, &session.Message{Role: session.RoleUser, Content: text(md)}),
		msg("h2", "h1", 1, &session.Message{Role: session.RoleAssistant, Provider: all, Model: all, Error: all, StopReason: "stop",
			Content: []session.Block{
				{Type: session.BlockThinking, Text: md},
				{Type: session.BlockText, Text: md},
				{Type: session.BlockToolCall, ToolCallID: "t1", ToolName: all, Arguments: args},
				{Type: session.BlockToolCall, ToolCallID: "t2", ToolName: "edit", Arguments: mustJSON(map[string]string{"path": all, "oldText": all, "newText": all})},
				{Type: session.BlockImage, MimeType: "image/png", Data: PNG, Filename: all},
				{Type: session.BlockFile, URL: "https://example.invalid/" + all},
			}}),
		msg("h3", "h2", 2, &session.Message{Role: session.RoleTool, ToolCallID: "t1", ToolName: all, IsError: true, Content: text(all + "\n" + md)}),
		msg("h4", "h3", 3, &session.Message{Role: session.RoleTool, ToolCallID: "t2", ToolName: "edit", Content: text(all)}),
		msg("h5", "h4", 4, &session.Message{Role: session.RoleTool, ToolCallID: "orphan", ToolName: all, Content: text(all)}),
		msg("h6", "h5", 5, &session.Message{Role: session.RoleBash, Exec: &session.Exec{Command: all, Output: all + "\n" + md}}),
		{Kind: session.KindCustomMessage, Type: "custom_message", ID: "h7", ParentID: "h6", Time: at(6),
			Message: &session.Message{Role: session.RoleCustom, CustomType: all, Content: text(md)}},
		{Kind: session.KindLabel, Type: "label", ID: "h8", ParentID: "h7", Time: at(7), Label: &session.Label{TargetID: "h7", Label: all}},
		{Kind: session.KindCompaction, Type: "compaction", ID: "h9", ParentID: "h8", Time: at(8), Compaction: &session.Compaction{Summary: md}},
		{Kind: session.KindBranchSummary, Type: "branch_summary", ID: "h10", ParentID: "h9", Time: at(9), BranchSummary: &session.BranchSummary{FromID: all, Summary: md}},
		{Kind: session.KindModelChange, Type: "model_change", ID: "h11", ParentID: "h10", Time: at(10), ModelChange: &session.ModelChange{Provider: all, ModelID: all}},
		{Kind: session.KindThinkingLevel, Type: "thinking_level_change", ID: "h12", ParentID: "h11", Time: at(11), ThinkingLevel: &level},
		{Kind: session.KindSessionInfo, Type: "session_info", ID: "h13", ParentID: "h12", Time: at(12), Title: all},
		{Kind: session.KindCustom, Type: "custom", ID: "h14", ParentID: "h13", Time: at(13), Custom: &session.Custom{CustomType: all, Data: mustJSON(map[string]string{"x": all})}},
		{Kind: session.KindSubagent, Type: "subagent", ID: "h15", ParentID: "h14", Time: at(14), Subagent: &session.Subagent{ID: all, AgentName: all, AgentType: all}},
		{Kind: session.KindSubagentEnd, Type: "subagent_end", ID: "h16", ParentID: "h15", Time: at(15), Subagent: &session.Subagent{ID: all, Result: md}},
		{Kind: session.KindOther, Type: all, ID: "h17", ParentID: "h16", Time: at(16), Custom: &session.Custom{Data: mustJSON(map[string]string{"y": all})}},
		msg("h18", "h17", 17, &session.Message{Role: session.Role(all), Content: text(md)}),
	}
	return &session.Session{
		Meta: session.Meta{ID: all, Title: all, Cwd: "/home/u/" + all, Created: at(0), Provider: all, Model: all,
			Parent: &session.Parent{SessionID: all, Path: "/home/u/" + all, EntryID: all, Summary: md}},
		Entries: entries,
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
