package opencode

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// caps is what OpenCode holds, in its store and its export document alike:
// messages chained in time order (a tool result is its call's part, a
// compaction a summary message), child sessions as sessions of their own.
var caps = format.Caps{
	Display:         "OpenCode",
	Own:             []string{Name, ExportName},
	Linear:          true,
	KindsConverted:  []session.Kind{session.KindCompaction},
	Roles:           []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool},
	Fallback:        format.FallbackUser,
	ToolCallOn:      []session.Role{session.RoleAssistant},
	Blocks:          []session.BlockType{session.BlockText, session.BlockThinking, session.BlockImage, session.BlockFile, session.BlockToolCall},
	BlocksConverted: []session.BlockType{session.BlockToolResult},
	// The model is per message: a session's own model, provider and
	// thinking level have no place (the model and provider name the model
	// of a message that has none, a user message's).
	Usage: true, Cost: true, IsError: true, StopReason: true, MessageModel: true, Title: true,
	ReasoningTokens: true, MessageProvider: true, MessageError: true, ModelRequired: true,
	DefaultModel: configModel{},
	// a compaction is a summary message, an extension message a user's
	CustomMessages:      format.CustomRule{As: format.CustomAsUser, Why: "stored as an OpenCode user message"},
	CompactionConverted: "stored as an OpenCode summary message",
	FirstKeptMoved:      "an OpenCode summary names no first kept entry; read back, the message before it is kept",
	// times are Unix milliseconds, and order the messages
	TimesAfter1970: "OpenCode keeps times after 1970; an earlier one is written as the time before it (at the start, the session's first)",
	TimesForward:   "a message stamped before the one it follows takes that one's time, so OpenCode keeps their order",
	// a tool result is its call's part
	ResultsInCall: &format.Rule{Action: loss.Dropped, Why: "no tool call with this id in an assistant message"},
	IDs:           format.IDStyle{Form: idForm, Minter: minter{}}, Times: format.TimeMillis,
}

// Caps declares what the layout holds. The store lists only root sessions
// and reaches a child through its parent, so a child whose parent is not
// converted with it keeps no link to it.
func (Format) Caps() format.Caps {
	c := caps
	c.ParentInBatch = &format.Rule{Action: loss.Dropped, Why: "the parent session is not converted with it, and OpenCode hides a child whose parent is missing"}
	return c
}

// Caps declares what the layout holds: the same as the store's.
func (Export) Caps() format.Caps { return caps }

// OptProject is the option naming the project a session is filed under
// (convert --project): the store's session/<project>/ directory, and the
// session's projectID in either layout.
const OptProject = "project"

// traits is how sesstool handles OpenCode's store: its writer reads a
// session twice rather than hold it, and takes the project to file it
// under.
var traits = format.Traits{
	Options: []format.Option{{Name: OptProject, Usage: "project id to file sessions under"}},
}

// Traits declares how the store is handled.
func (Format) Traits() format.Traits { return traits }

// Traits declares how the export document is handled: as the store, and
// its validator keeps the ids and lines of every message and part for the
// rules across messages, so convert and export validate an export
// document before reading it, not alongside.
func (Export) Traits() format.Traits {
	t := traits
	t.AccumulatesWhenValidating = true
	return t
}
