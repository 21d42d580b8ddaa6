package ash

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// caps is what ash holds: a tree of messages with tool results and
// compactions hung off them, and sub-agent runs in files of their own; no
// thinking, images, usage or per-message model.
var caps = format.Caps{
	Own:          []string{Name},
	MessageLinks: true,
	Sidechains:   true,
	Kinds:        []session.Kind{session.KindCompaction, session.KindSubagent, session.KindSubagentEnd},
	Roles:        []session.Role{session.RoleUser, session.RoleAssistant, session.RoleSystem, session.RoleTool},
	Alias:        map[session.Role]session.Role{session.RoleDeveloper: session.RoleSystem},
	Fallback:     format.FallbackUser,
	ToolCallOn:   []session.Role{session.RoleAssistant, session.RoleUser},
	Blocks:       []session.BlockType{session.BlockText, session.BlockToolCall, session.BlockToolResult},
	IsError:      true,
	// the header's provider names the chat: a session from another layout
	// is ash's own command line's
	FixedProvider: "cli",
	// a tool_result line is one output string, tied to a tool_use line
	// before it; a sub-agent run is a tool call's
	CustomMessages:  format.CustomRule{As: format.CustomDropped, Why: "ash has no extension messages", KeepResults: true},
	ResultsTextOnly: "ash tool results are text only",
	ResultsNeedCall: "its tool call is in no message ash can write",
	RunsNeedCall:    "ash keeps a sub-agent run only as a tool call's (parent_tool_use_id); this run was started by none (a Claude Code warm-up or compaction agent)",
	IDs:             format.IDStyle{Form: format.IDUUID, Fresh: true}, Times: format.TimePython,
}

// Caps declares what the layout holds.
func (Format) Caps() format.Caps { return caps }
