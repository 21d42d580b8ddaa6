package claude

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// caps is what Claude Code holds: a tree of user and assistant lines (tool
// results are user lines), sub-agent runs in files of their own, titles;
// thinking with Anthropic's signatures, which only a session Claude Code
// wrote can carry: the API accepts only Anthropic's own, so a signature
// from another layout is dropped.
var caps = format.Caps{
	Display:        "Claude Code",
	Own:            []string{Name},
	Sidechains:     true,
	Kinds:          []session.Kind{session.KindSessionInfo},
	KindsConverted: []session.Kind{session.KindCompaction, session.KindSubagent, session.KindSubagentEnd},
	Roles:          []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool},
	Fallback:       format.FallbackUser,
	ToolCallOn:     []session.Role{session.RoleAssistant},
	Blocks:         []session.BlockType{session.BlockText, session.BlockThinking, session.BlockImage, session.BlockToolCall, session.BlockToolResult},
	OwnSignatures:  []session.BlockType{session.BlockThinking},
	Usage:          true, IsError: true, StopReason: true, MessageModel: true, Title: true,
	IDs: format.IDStyle{Form: format.IDUUID, Seed: "claude-session:"}, Times: format.TimeISO,
}

// Caps declares what the layout holds.
func (Format) Caps() format.Caps { return caps }
