package session

import "encoding/json"

// Kind says what an Entry records.
type Kind string

const (
	KindMessage       Kind = "message"
	KindCustomMessage Kind = "custom_message" // extension-injected message that enters LLM context
	KindCompaction    Kind = "compaction"
	KindBranchSummary Kind = "branch_summary"
	KindLabel         Kind = "label"
	KindModelChange   Kind = "model_change"
	KindThinkingLevel Kind = "thinking_level_change"
	KindSessionInfo   Kind = "session_info" // a title/name change
	KindCustom        Kind = "custom"       // extension state, never in LLM context
	KindSubagent      Kind = "subagent"     // ash agent_session: a sub-agent was started
	KindSubagentEnd   Kind = "subagent_end" // ash agent_session_complete
	KindOther         Kind = "other"        // a format's entry type the model has no slot for; see Entry.Type
)

// Entry is one node of the session tree.
type Entry struct {
	Kind Kind
	Type string // the type as the source spelled it ("message", "hookMessage", "ttsr_injection", ...)

	ID       string
	ParentID string // "" for a root
	Time     Time

	// Sidechain names the sub-agent run an entry belongs to (ash agent_session_id);
	// "" for the main conversation.
	Sidechain string

	Message       *Message       // KindMessage, KindCustomMessage
	Compaction    *Compaction    // KindCompaction
	BranchSummary *BranchSummary // KindBranchSummary
	Label         *Label         // KindLabel
	ModelChange   *ModelChange   // KindModelChange
	ThinkingLevel *string        // KindThinkingLevel; nil means null
	Title         string         // KindSessionInfo
	Custom        *Custom        // KindCustom, KindOther (Data holds the whole body)
	Subagent      *Subagent      // KindSubagent, KindSubagentEnd

	Extra Extras // members of the source the model has no slot for
	Source
}

// Compaction replaces the context before it with a summary.
type Compaction struct {
	Summary      string
	FirstKeptID  string // entry id; "" when none
	TokensBefore *int64
	TokensAfter  *int64
	Details      json.RawMessage
	FromHook     *bool  // pi fromHook / omp fromExtension
	BranchID     string // ash: the branch the compaction belongs to
}

// BranchSummary summarises an abandoned branch when the user moved away from it.
type BranchSummary struct {
	FromID   string // "root" when branching from the root
	Summary  string
	Details  json.RawMessage
	FromHook *bool
}

// Label is a user bookmark on an entry; an empty Label clears it.
type Label struct {
	TargetID string
	Label    string
}

// ModelChange records a switch of model.
type ModelChange struct {
	Provider string
	ModelID  string
	Role     string // oh-my-pi: which model role changed ("default", "smol", ...)
	Combined bool   // oh-my-pi spells it model:"provider/modelId"
}

// Custom is extension data, or an unmodelled entry's body.
type Custom struct {
	CustomType string
	Data       json.RawMessage
}

// Subagent is a sub-agent run started by a tool call (ash agent_session).
type Subagent struct {
	ID               string
	ParentToolCallID string
	AgentType        string
	AgentName        string
	Result           string // KindSubagentEnd
	IsError          bool
}

// IsMessage reports whether e counts as a message (docs/commands.md,
// "messages"): a message entry, or an extension's custom_message, which
// enters the model's context as a message too. info counts these.
func (e *Entry) IsMessage() bool {
	return e.Message != nil && (e.Kind == KindMessage || e.Kind == KindCustomMessage)
}
