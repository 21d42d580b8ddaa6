package copilot

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// caps is what Copilot CLI's event log holds: one chain of events, with
// user, system and assistant messages, tool results, model changes and
// sub-agent runs inline (their events carry agentId). An assistant
// message's reasoningOpaque, the blob only its provider reads, is kept
// copilot to copilot byte for byte and counted as encrypted reasoning by
// every other layout; tool.execution_start, turn, hook and shutdown events
// and the rest of what Copilot logs survive copilot to copilot only.
var caps = format.Caps{
	Display:          "GitHub Copilot CLI",
	Own:              []string{Name},
	Linear:           true,
	Sidechains:       true,
	RunsNeedKeptCall: "GitHub Copilot CLI starts a sub-agent run from a tool call of the conversation, and the call that started this one is off the active path",
	Kinds:            []session.Kind{session.KindModelChange, session.KindSubagent, session.KindSubagentEnd},
	Roles:            []session.Role{session.RoleUser, session.RoleAssistant, session.RoleSystem, session.RoleTool},
	Fallback:         format.FallbackUser,
	// a developer message is an instruction, as Copilot's system.message is
	Alias:      map[session.Role]session.Role{session.RoleDeveloper: session.RoleSystem},
	ToolCallOn: []session.Role{session.RoleAssistant},
	Blocks:     []session.BlockType{session.BlockText, session.BlockThinking, session.BlockToolCall},
	IsError:    true, MessageModel: true, SessionModel: true,
	// each call's tokens, as the session.usage_record before its message
	Usage: true, ReasoningTokens: true,
	// the name lives in the workspace.yaml beside the log
	TitleInHome:  true,
	KindsDropped: []session.Kind{session.KindCompaction},
	LossReasons: map[loss.Kind]string{
		loss.CompactionEntry: "GitHub Copilot CLI has no compaction it could resume from another layout's summary",
		loss.SessionTitle:    "GitHub Copilot CLI keeps a session's name in the workspace.yaml beside its log, and this log is not written into a Copilot home (-o DIR)",
	},
	IDs: format.IDStyle{Form: format.IDUUID, Seed: "copilot:"}, Times: format.TimeISO,
}

// Caps declares what the layout holds.
func (Format) Caps() format.Caps { return caps }
