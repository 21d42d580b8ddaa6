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
	CompactionSummaryOnly: true,
	ResultsNeedCall:       "its tool call is not in an assistant reply Codex can write",
	CustomMessages:        format.CustomRule{As: format.CustomDropped, Why: "Codex has message and compaction lines only", AsEntry: true},
	IDs:                   format.IDStyle{Form: format.IDUUID, Seed: "codex:"}, Times: format.TimeISO,
}

// summaryOnly is why a compaction's other fields are lost.
const summaryOnly = "Codex's compacted line keeps the summary only"

// Caps declares what the layout holds.
func (Format) Caps() format.Caps { return caps }
