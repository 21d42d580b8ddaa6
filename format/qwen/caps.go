package qwen

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// caps is what Qwen Code holds: a tree of user, assistant and tool_result
// lines with Gemini parts (text, thoughts, function calls and responses,
// inline and file data), per-message model and usage, titles. A session of
// another layout is written along its active path: Qwen Code resumes the
// chain of the file's last line.
var caps = format.Caps{
	Display:        "Qwen Code",
	Own:            []string{Name},
	Linear:         true,
	Kinds:          []session.Kind{session.KindSessionInfo},
	KindsConverted: []session.Kind{session.KindCompaction},
	Roles:          []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool},
	Fallback:       format.FallbackUser,
	ToolCallOn:     []session.Role{session.RoleAssistant},
	Blocks:         []session.BlockType{session.BlockText, session.BlockThinking, session.BlockImage, session.BlockToolCall, session.BlockToolResult, session.BlockFile},
	Signatures:     []session.BlockType{session.BlockText, session.BlockThinking, session.BlockToolCall},
	Usage:          true, CacheWriteAsInput: true, IsError: true, MessageModel: true, Title: true, ReasoningTokens: true,
	// Qwen Code's compression record holds the compressed history itself:
	// the summary of another layout is handed on as the user line the
	// model reads it from.
	CompactionAsUser: true, CustomMessages: format.CustomRule{As: format.CustomAsMessage},
	ConvertedWhy: map[session.Kind]string{session.KindCompaction: "Qwen Code keeps another layout's compaction summary as a user line marked isCompactSummary"},
	NoLineWhy:    "Qwen Code has no such line",
	TurnJoinsWhy: "Qwen Code answers a turn's calls right after it: an assistant message among a turn's results is joined to the turn",
	IDs:          format.IDStyle{Form: format.IDUUID, Seed: "qwen-session:"}, Times: format.TimeISO,
}

// Caps declares what the layout holds.
func (Format) Caps() format.Caps { return caps }
