package loss

import "github.com/sesstool/sesstool/session"

// Kind names one kind of loss, spelled alike whatever the target.
type Kind string

// Action says what became of what was counted.
type Action string

const (
	Dropped   Action = "dropped"   // not written at all
	Flattened Action = "flattened" // kept, but without its structure (branches on a linear target)
	Converted Action = "converted" // written as something the target has (a bash run as a user message)
	Moved     Action = "moved"     // written, pointing elsewhere (a compaction's first kept entry)
)

// Actions is every action.
var Actions = []Action{Dropped, Flattened, Converted, Moved}

// The kinds with a fixed name.
const (
	// Structure.
	Branch    Kind = "branch"          // a branch off the active path, on a linear target
	OffPath   Kind = "off-path-entry"  // an entry off the active path, on a linear target
	Sidechain Kind = "sidechain-entry" // a sub-agent run or side file the target has no place for

	// Whole entries and messages.
	CustomMessage   Kind = "custom-message"   // an extension message (ash has none)
	CompactionEntry Kind = "compaction-entry" // a compaction the target cannot place
	Compaction      Kind = "compaction"       // a compaction stored as something else
	FirstKept       Kind = "compaction-first-kept"

	// Compaction fields.
	CompactionTokensAfter Kind = "compaction-tokens-after"
	CompactionDetails     Kind = "compaction-details"
	CompactionBranch      Kind = "compaction-branch"

	// Content.
	ToolCall   Kind = "tool-call"
	ToolResult Kind = "tool-result"
	Signature  Kind = "thinking-signature"
	// Opaque data only the provider can read (Codex's encrypted
	// reasoning), kept by its own layout only.
	EncryptedReasoning Kind = "encrypted-reasoning"
	// A tool output Claude Code keeps in a side file (tool-results/),
	// of which the transcript holds a preview.
	ToolResultFile Kind = "tool-result-file"
	FileName       Kind = "file-name"

	// Per-message data.
	Usage           Kind = "usage"
	ReasoningTokens Kind = "reasoning-tokens"
	MessageModel    Kind = "message-model"
	MessageAPI      Kind = "message-api"
	MessageDetails  Kind = "message-details"
	MessageAuthor   Kind = "message-author"
	MessageTokens   Kind = "message-token-count"
	StopReason      Kind = "stop-reason"
	IsError         Kind = "is-error"

	// Session data.
	SessionTitle   Kind = "session-title"
	SessionModel   Kind = "session-model"
	Provider       Kind = "provider"
	ThinkingLevel  Kind = "thinking-level"
	Checkpoint     Kind = "checkpoint"
	CheckpointBlob Kind = "checkpoint-blob"
	ParentLink     Kind = "parent-link"
	ParentPath     Kind = "parent-path"
	ChildSession   Kind = "child-session"

	// Members of the source the model has no slot for (session.Extras),
	// by the object that held them.
	SessionField Kind = "session-field"
	EntryField   Kind = "entry-field"
	MessageField Kind = "message-field"
	BlockField   Kind = "block-field"

	// Content cut to fit what the target can read (convert --truncate-messages).
	LongMessage Kind = "long-message"

	// A time the target cannot spell (OpenCode's before 1970).
	Time Kind = "time"
)

// Kinds is every fixed kind; docs/convert.md lists exactly these and Families.
var Kinds = []Kind{
	Branch, OffPath, Sidechain,
	CustomMessage, CompactionEntry, Compaction, FirstKept,
	CompactionTokensAfter, CompactionDetails, CompactionBranch,
	ToolCall, ToolResult, Signature, EncryptedReasoning, FileName, ToolResultFile,
	Usage, ReasoningTokens, MessageModel, MessageAPI, MessageDetails, MessageAuthor, MessageTokens, StopReason, IsError,
	SessionTitle, SessionModel, Provider, ThinkingLevel, Checkpoint, CheckpointBlob, ParentLink, ParentPath, ChildSession,
	SessionField, EntryField, MessageField, BlockField,
	LongMessage, Time,
}

// Families are the kinds built from a name of the model, as
// docs/convert.md spells them.
var Families = []string{"<entry kind>-entry", "<role>-message", "<block type>-block", "<block type>-without-data", "<block type>-signature"}

// Entry is the kind of a whole entry a layout cannot hold:
// "model_change-entry", or for an entry the model has no kind for, its
// source type ("transcript:assistant-entry").
func Entry(e *session.Entry) Kind {
	if e.Kind == session.KindOther && e.Type != "" {
		return Kind(e.Type + "-entry")
	}
	return Kind(string(e.Kind) + "-entry")
}

// Role is the kind of a message whose role a layout lacks ("bash-message").
func Role(r session.Role) Kind { return Kind(string(r) + "-message") }

// Block is the kind of a content block a layout cannot hold ("image-block").
func Block(t session.BlockType) Kind { return Kind(string(t) + "-block") }

// SignatureOf is the kind of a provider's signature on a block of type t
// that the target keeps without it ("text-signature", Gemini's
// "tool_call-signature"); a thinking block's is Signature, with its
// redaction flag.
func SignatureOf(t session.BlockType) Kind { return Kind(string(t) + "-signature") }

// WithoutData is the kind of an image or file known only by URL, where the
// target keeps inline data only ("file-without-data").
func WithoutData(t session.BlockType) Kind { return Kind(string(t) + "-without-data") }
