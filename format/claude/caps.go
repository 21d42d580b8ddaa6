package claude

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// caps is what Claude Code holds: a tree of user and assistant lines (tool
// results are user lines), sub-agent runs in files of their own, titles;
// thinking with Anthropic's signatures. The signature is kept on thinking
// blocks, so the model layer leaves it alone; the thinking a session from
// another layout carries is left out (ThinkingOwnOnly), since the Anthropic
// API takes a thinking block back only with the signature it issued for
// that very text.
var caps = format.Caps{
	Display:         "Claude Code",
	Own:             []string{Name},
	Sidechains:      true,
	Kinds:           []session.Kind{session.KindSessionInfo},
	KindsConverted:  []session.Kind{session.KindCompaction, session.KindSubagent, session.KindSubagentEnd},
	Roles:           []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool},
	Fallback:        format.FallbackUser,
	ToolCallOn:      []session.Role{session.RoleAssistant},
	Blocks:          []session.BlockType{session.BlockText, session.BlockThinking, session.BlockImage, session.BlockToolCall, session.BlockToolResult},
	Signatures:      []session.BlockType{session.BlockThinking},
	ThinkingOwnOnly: true, CallsNeedResults: true,
	CallsNeedResultsWhy: "a tool call with no result in the session (a search the provider ran, or one cut off) is answered by a result saying so: the Anthropic API refuses a tool_use without its tool_result, and Claude Code drops the message holding it",
	ThinkingOwnOnlyWhy:  "the Anthropic API takes a thinking block back only with the signature Anthropic issued for it, which a session from another layout cannot be shown to carry; Claude Code would send it on resuming and be refused, so it is left out",
	ConvertedWhy: map[session.Kind]string{
		session.KindSubagent:    subagentFile,
		session.KindSubagentEnd: subagentFile,
		session.KindCompaction:  "Claude Code keeps a compaction summary as a user line marked isCompactSummary",
	},
	CompactionAsUser: true, CustomMessages: format.CustomRule{As: format.CustomAsMessage},
	NoLineWhy:     "Claude Code has no such line",
	NoParentWhy:   "Claude Code's session file names no parent session",
	NoChildrenWhy: "Claude Code's session file names no child sessions",
	Usage:         true, IsError: true, StopReason: true, MessageModel: true, Title: true,
	IDs: format.IDStyle{Form: format.IDUUID, Seed: "claude-session:"}, Times: format.TimeISO,
}

// subagentFile is why an entry that starts or ends a sub-agent run of
// another layout is counted converted: the run is a file of its own.
const subagentFile = "Claude Code keeps a sub-agent run as its own transcript file"

// Caps declares what the layout holds.
func (Format) Caps() format.Caps { return caps }
