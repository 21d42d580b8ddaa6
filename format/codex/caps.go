package codex

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// caps is what a rollout holds: one line of messages (user, assistant,
// developer and system messages, reasoning, tool calls and their outputs)
// and compactions, with token counts. Reasoning's encrypted_content and
// everything else Codex keeps that the model has no slot for survive only
// codex to codex.
var caps = format.Caps{
	Display:    "Codex",
	Own:        []string{Name},
	Linear:     true,
	Kinds:      []session.Kind{session.KindCompaction},
	Roles:      []session.Role{session.RoleUser, session.RoleAssistant, session.RoleDeveloper, session.RoleSystem, session.RoleTool},
	Fallback:   format.FallbackUser,
	ToolCallOn: []session.Role{session.RoleAssistant},
	// No thinking: Codex resends every reasoning item to the model, and the
	// Responses API refuses one without the encrypted_content its service
	// issued, which another layout's thinking never has. A rollout's own
	// reasoning survives codex to codex.
	Blocks: []session.BlockType{session.BlockText, session.BlockImage, session.BlockToolCall},
	// ash's tool_result blocks become function_call_output items, an
	// OpenCode file with data an input_image.
	BlocksConverted: []session.BlockType{session.BlockToolResult, session.BlockFile},
	ImagesOn:        []session.Role{session.RoleUser},
	Usage:           true, CacheWriteAsInput: true, ReasoningTokens: true,
	TitleInHome: true, // thread names live in the home's session_index.jsonl
	LossReasons: map[loss.Kind]string{
		loss.SessionTitle:          "Codex keeps thread names in its home's session_index.jsonl, and this rollout is not written into a Codex home (-o DIR)",
		loss.FirstKept:             summaryOnly,
		loss.CompactionTokensAfter: summaryOnly,
		loss.CompactionDetails:     summaryOnly,
		loss.CompactionBranch:      summaryOnly,
	},
	CompactionLacks: []loss.Kind{loss.FirstKept, loss.CompactionTokensAfter, loss.CompactionDetails, loss.CompactionBranch},
	ResultsNeedCall: "its tool call is not in an assistant reply Codex can write",
	CustomMessages:  format.CustomRule{As: format.CustomDropped, Why: "Codex has message and compaction lines only", AsEntry: true},
	IDs:             format.IDStyle{Form: format.IDUUID, Seed: "codex:"}, Times: format.TimeISO,

	// A reply's response items are text and function calls; the items of
	// every other role's message are input text and input images, with the
	// function_call_output items ash's tool_result blocks become.
	BlocksOn: map[session.Role]format.RoleBlocks{
		session.RoleAssistant: {Types: []session.BlockType{session.BlockText, session.BlockToolCall},
			Why: "Codex's assistant replies hold text and tool calls only (reasoning only with the encrypted content the service issued)"},
		session.RoleUser:      inputBlocks(session.RoleUser),
		session.RoleDeveloper: inputBlocks(session.RoleDeveloper),
		session.RoleSystem:    inputBlocks(session.RoleSystem),
		// a tool message is the function_call_output of its call, whose
		// output the writer spells as the message's text
		session.RoleTool: {Types: []session.BlockType{session.BlockText},
			Why: "Codex's function_call_output holds the output's text only"},
	},
	// An input_image is a data: URL or a link, with no file name.
	FilesImagesOnly: &format.Rule{Action: loss.Dropped, Why: "Codex's messages hold images, not other files"},
	ImagesInline:    &format.Rule{Action: loss.Dropped, Why: "the source has neither data nor a URL for it"},
	ImagesLinked:    true,
	ImageFileName:   &format.Rule{Action: loss.Dropped, Why: "Codex's input_image has no file name"},
	// session_meta links a fork by the parent's id, and a sub-agent's
	// rollout to its parent, never the parent to it.
	ParentPathDropped: &format.Rule{Action: loss.Dropped, Why: "Codex links a fork by the parent's id only"},
	ParentNeedsID:     &format.Rule{Action: loss.Dropped, Why: "Codex links a fork by the parent's id, and the source has none"},
	NoChildrenWhy:     "Codex links a sub-agent's file to its parent, not the parent to it",
}

// inputBlocks is what a message of role r other than a reply holds.
func inputBlocks(r session.Role) format.RoleBlocks {
	return format.RoleBlocks{Types: []session.BlockType{session.BlockText, session.BlockImage, session.BlockFile, session.BlockToolResult},
		Why: "Codex's " + string(r) + " messages hold text and images only"}
}

// summaryOnly is why a compaction's other fields are lost.
const summaryOnly = "Codex's compacted line keeps the summary only"

// Caps declares what the layout holds.
func (Format) Caps() format.Caps { return caps }
