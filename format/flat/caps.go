package flat

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// caps is what flat holds: one line of messages and compactions.
var caps = format.Caps{
	Own:             []string{Name},
	Linear:          true,
	Kinds:           []session.Kind{session.KindCompaction},
	Roles:           []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool},
	Fallback:        format.FallbackDrop,
	ToolCallOn:      []session.Role{session.RoleAssistant},
	Blocks:          []session.BlockType{session.BlockText, session.BlockThinking, session.BlockImage, session.BlockToolCall},
	BlocksConverted: []session.BlockType{session.BlockFile, session.BlockToolResult},
	Usage:           true, Cost: true, IsError: true, StopReason: true, MessageModel: true,
	MessageProvider: true, MessageError: true,
	IDs: format.IDStyle{Form: format.IDHex8, Seed: "flat:"}, Times: format.TimeRFC3339,

	Stops:           &format.Rule{Action: loss.Flattened, Why: "flat knows stop, length, tool_use, error and aborted only"},
	ToolCallsOnlyOn: &format.Rule{Action: loss.Dropped, Why: "flat has tool calls in assistant messages only"},
	ParentNeedsPath: &format.Rule{Action: loss.Dropped, Why: "flat's branch line needs the parent's file path and fork entry id"},
	ImagesInline:    &format.Rule{Action: loss.Dropped, Why: "flat keeps images inline as base64 only"},
	ImageFileName:   &format.Rule{Action: loss.Dropped, Why: "flat's image block has no file name"},

	// Lines are messages and compactions only; a result follows the
	// assistant message that made its call.
	CustomMessages:  format.CustomRule{As: format.CustomDropped, Why: "flat has message and compaction entries only", AsEntry: true},
	NoLineWhy:       "flat has message and compaction entries only",
	ResultsNeedCall: "its tool call is not in an assistant message flat can write",
	// A compaction names an entry written before it, and keeps its summary
	// and token count before.
	FirstKeptEarlier: true,
	CompactionLacks:  []loss.Kind{loss.CompactionTokensAfter, loss.CompactionDetails, loss.CompactionBranch},
}

// Caps declares what the layout holds.
func (*Format) Caps() format.Caps { return caps }
