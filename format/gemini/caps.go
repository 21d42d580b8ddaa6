package gemini

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// caps is what Gemini CLI holds: one line of user and gemini messages, a
// reply carrying its thoughts (summaries, no signature), its model, its
// token counts and its tool calls with their results; the summary as the
// title. A tool call needs its result: the agent sends each call back
// with its response. Notices (info, error, warning) are the agent's own
// and never sent to the model, so another layout's custom entries are not
// written as them. Sub-agent runs are files of their own beside their
// parent's in the home (chats/<parentSessionId>/<sessionId>.jsonl), the
// call that started one naming it (agentId): a single file has no room for
// them.
var caps = format.Caps{
	Display:          "Gemini CLI",
	Own:              []string{Name},
	Linear:           true,
	SidechainsInHome: true,
	// the call that started a run names it; its end is its file's last record
	KindsConverted:   []session.Kind{session.KindSubagent, session.KindSubagentEnd},
	Roles:            []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool},
	Fallback:         format.FallbackUser,
	ToolCallOn:       []session.Role{session.RoleAssistant},
	Blocks:           []session.BlockType{session.BlockText, session.BlockThinking, session.BlockImage, session.BlockToolCall, session.BlockFile},
	ImagesOn:         []session.Role{session.RoleUser, session.RoleAssistant},
	CallsNeedResults: true, CallsWaitInTurn: true,
	CallsNeedResultsWhy: "a tool call with no result in the session (a search the provider ran, or one cut off) is answered by a result saying so: Gemini CLI sends each call back with its result, and the API refuses one without",
	Usage:               true, IsError: true, MessageModel: true, Title: true, ReasoningTokens: true,
	CacheWriteAsInput: true,
	// Gemini CLI's own compression replaces the messages, which a summary
	// of another layout cannot do.
	CustomMessages: format.CustomRule{As: format.CustomDropped, Why: "Gemini CLI has no extension messages"},
	NoLineWhy:      "Gemini CLI has message entries only",
	IDs:            format.IDStyle{Form: format.IDUUID, Seed: "gemini:"},
	Times:          format.TimeISO,
}

// Caps declares what the layout holds.
func (Format) Caps() format.Caps { return caps }
