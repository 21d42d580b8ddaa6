package goat

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// caps is what goat holds: one line of chat messages (an assistant turn's
// last text block, user images) and file snapshots; its transcript is its
// own side file.
var caps = format.Caps{
	Own:             []string{Name},
	Linear:          true,
	Checkpoints:     true,
	KindsConverted:  []session.Kind{session.KindSessionInfo}, // the last title, as leaf_title
	Roles:           []session.Role{session.RoleUser, session.RoleAssistant, session.RoleSystem, session.RoleTool},
	Alias:           map[session.Role]session.Role{session.RoleDeveloper: session.RoleSystem},
	Fallback:        format.FallbackDrop,
	ToolCallOn:      []session.Role{session.RoleAssistant},
	Blocks:          []session.BlockType{session.BlockText, session.BlockImage, session.BlockToolCall},
	BlocksConverted: []session.BlockType{session.BlockToolResult},
	ImagesOn:        []session.Role{session.RoleUser},
	LastText:        true,
	Title:           true, SessionModel: true,
	ConvertedWhy:    map[session.Kind]string{session.KindSessionInfo: "goat keeps the last title as metadata.json leaf_title"},
	NoLineWhy:       "goat's messages.jsonl holds chat messages only",
	NoChildrenWhy:   "goat does not link child sessions",
	NoParentPathWhy: "goat links a fork by parent session id only",
	ToolCallsOnlyOn: &format.Rule{Action: loss.Dropped, Why: "goat has tool calls on assistant messages only"},
	// a user message's tool_result blocks (ash's) are written as tool messages
	ResultsOnlyOn:        &format.Rule{Action: loss.Dropped, Why: "goat has no such content part"},
	ResultBlocksOn:       []session.Role{session.RoleUser},
	ResultsNeedCall:      "its tool call is not in an assistant message goat can write",
	SnapshotsNeedContent: &format.Rule{Action: loss.Dropped, Why: "the file's content was not available"},
	MessageLimit:         lineLimit,
	ForkPointKept:        &format.Rule{Action: loss.Dropped, Why: "goat's fork point is a message of the session, and the fork entry is not one goat keeps"},
	IDs:                  format.IDStyle{Form: format.IDUUID, Seed: "goat:"}, Times: format.TimeNano,
}

// Caps declares what the layout holds.
func (Format) Caps() format.Caps { return caps }

// OptTruncate is the option that lets the writer cut a message whose line
// goat could not read (MaxLine) to fit, counted as lost, instead of
// refusing it (convert --truncate-messages).
const OptTruncate = "truncate-messages"

// traits is how sesstool handles goat's layout: its writer takes the cut
// of a line too long for goat.
var traits = format.Traits{
	Options: []format.Option{{Name: OptTruncate, Switch: true,
		Usage: "cut a message longer than the target can read (goat: a 10 MiB line) to fit, counted as lost, instead of refusing it"}},
}

// Traits declares how the layout is handled.
func (Format) Traits() format.Traits { return traits }
