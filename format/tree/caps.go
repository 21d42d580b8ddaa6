package tree

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// caps is what pi's tree holds: nearly everything, as a tree of entries.
// Sub-agent entries and other layouts' entry types are kept as pi's
// extension state (custom entries); sub-agent runs and side files are not.
var caps = format.Caps{
	Display: "pi",
	Own:     []string{Name},
	Kinds: []session.Kind{session.KindCompaction, session.KindBranchSummary, session.KindLabel, session.KindModelChange,
		session.KindThinkingLevel, session.KindSessionInfo, session.KindCustom, session.KindCustomMessage},
	KindsConverted: []session.Kind{session.KindSubagent, session.KindSubagentEnd, session.KindOther},
	Roles: []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool, session.RoleBash, session.RoleCustom,
		session.RoleSummary, session.RoleDeveloper, session.RolePython, session.RoleFiles},
	Alias:           map[session.Role]session.Role{session.RoleSystem: session.RoleDeveloper},
	Fallback:        format.FallbackUser,
	ToolCallOn:      []session.Role{session.RoleAssistant},
	Blocks:          []session.BlockType{session.BlockText, session.BlockThinking, session.BlockImage, session.BlockToolCall},
	BlocksConverted: []session.BlockType{session.BlockFile, session.BlockToolResult},
	Signatures:      []session.BlockType{session.BlockText, session.BlockThinking, session.BlockToolCall},
	Usage:           true, Cost: true, IsError: true, StopReason: true, MessageModel: true, Title: true, SessionModel: true,
	MessageProvider: true, MessageAPI: true, MessageError: true, MessageDetails: true, Provider: true, ThinkingLevel: true,
	IDs: format.IDStyle{Form: format.IDHex8, Seed: "tree:"}, Times: format.TimeISO,

	ConvertedWhy: map[session.Kind]string{
		session.KindSubagent:    "pi has no sub-agent entries: written as custom entries",
		session.KindSubagentEnd: "pi has no sub-agent entries: written as custom entries",
		session.KindOther:       "pi has no such entry: kept as a custom entry",
	},
	Stops:         &format.Rule{Action: loss.Converted, Why: "pi knows stop, length, toolUse, error and aborted only"},
	ImagesInline:  &format.Rule{Action: loss.Dropped, Why: "pi keeps images inline as base64 only"},
	ImageMIME:     &format.Rule{Action: loss.Dropped, Why: "the source gives no MIME type and the data is not an image pi can show"},
	ImageFileName: &format.Rule{Action: loss.Dropped, Why: "pi's image block has no file name"},
	// a compaction names the entry it keeps; a message's time is Unix
	// milliseconds
	FirstKeptNamed:     "pi's compaction must name a kept entry; the entry before the summary is kept (a tool result with its call)",
	MessageTimeAsEntry: "pi spells a message's time in milliseconds after 1970: an earlier one is written as its entry's time",
	MessageTimeLeftOut: "pi spells a message's time in milliseconds after 1970: an earlier one is left out of the message (its entry keeps its own time)",
}

// Caps declares what the layout holds.
func (Format) Caps() format.Caps { return caps }
