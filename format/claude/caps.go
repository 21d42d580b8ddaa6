package claude

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// caps is what Claude Code holds: a tree of user and assistant lines (tool
// results are user lines), sub-agent runs in files of their own, titles;
// thinking with Anthropic's signatures. The signature is kept on thinking
// blocks, so the model layer leaves it alone; the writer itself leaves out
// the thinking a session from another layout carries (foreignThinking),
// since the Anthropic API takes a thinking block back only with the
// signature it issued for that very text.
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
	Usage: true, IsError: true, StopReason: true, MessageModel: true, Title: true,
	IDs: format.IDStyle{Form: format.IDUUID, Seed: "claude-session:"}, Times: format.TimeISO,
}

// Caps declares what the layout holds.
func (Format) Caps() format.Caps { return caps }
