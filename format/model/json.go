package model

import "encoding/json"

// The types below are the dump's encoding: one Go struct per JSON object,
// used by the writer and the reader alike so the two cannot drift apart.
// Members are written in struct order; a member holding its zero value is
// left out (docs/model.md: "absent means zero") except where a tag has no
// omitempty.

type metaLine struct {
	Model int       `json:"model"`
	Meta  *metaJSON `json:"meta"`
}

type metaJSON struct {
	ID            string           `json:"id,omitempty"`
	Title         string           `json:"title,omitempty"`
	Cwd           string           `json:"cwd,omitempty"`
	Created       *timeJSON        `json:"created,omitempty"`
	Updated       *timeJSON        `json:"updated,omitempty"`
	Version       string           `json:"version,omitempty"`
	Parent        *parentJSON      `json:"parent,omitempty"`
	Provider      string           `json:"provider,omitempty"`
	Model         string           `json:"model,omitempty"`
	ThinkingLevel string           `json:"thinking_level,omitempty"`
	Checkpoints   []checkpointJSON `json:"checkpoints,omitempty"`
	Children      []string         `json:"children,omitempty"`
	Source        *sourceJSON      `json:"source,omitempty"`
	Extras        extrasJSON       `json:"extras,omitempty"`
}

// sourceJSON says where the model came from: the layout that read it and,
// for an entry, its line there. It names no bytes. Unmodelled counts the
// parts of the source the layout keeps privately that the model has no slot
// for (an ash history line's members, an OpenCode side file): they are not
// in extras, and another layout's writer counts them as lost.
type sourceJSON struct {
	Layout     string `json:"layout,omitempty"`
	Line       int    `json:"line,omitempty"`
	Unmodelled int    `json:"unmodelled,omitempty"`
}

type timeJSON struct {
	At  string `json:"at,omitempty"`  // the instant, RFC 3339 in UTC with as many fraction digits as needed
	Raw string `json:"raw,omitempty"` // the source's spelling
}

type parentJSON struct {
	SessionID string     `json:"session_id,omitempty"`
	Path      string     `json:"path,omitempty"`
	EntryID   string     `json:"entry_id,omitempty"`
	Summary   string     `json:"summary,omitempty"`
	Run       bool       `json:"run,omitempty"`
	ID        string     `json:"id,omitempty"`
	Time      *timeJSON  `json:"time,omitempty"`
	Extras    extrasJSON `json:"extras,omitempty"`
}

type checkpointJSON struct {
	ID        string          `json:"id,omitempty"`
	MessageID string          `json:"message_id,omitempty"`
	Created   *timeJSON       `json:"created,omitempty"`
	Files     []fileStateJSON `json:"files,omitempty"`
}

type fileStateJSON struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	Hash   string `json:"hash,omitempty"`
	Size   int64  `json:"size,omitempty"`
	Blob   string `json:"blob,omitempty"`
}

type entryJSON struct {
	Kind          string             `json:"kind"`
	Type          string             `json:"type,omitempty"`
	ID            string             `json:"id,omitempty"`
	Parent        string             `json:"parent,omitempty"`
	Time          *timeJSON          `json:"time,omitempty"`
	Sidechain     string             `json:"sidechain,omitempty"`
	Message       *messageJSON       `json:"message,omitempty"`
	Compaction    *compactionJSON    `json:"compaction,omitempty"`
	BranchSummary *branchSummaryJSON `json:"branch_summary,omitempty"`
	Label         *labelJSON         `json:"label,omitempty"`
	ModelChange   *modelChangeJSON   `json:"model_change,omitempty"`
	ThinkingLevel *string            `json:"thinking_level,omitempty"` // absent: null
	Title         string             `json:"title,omitempty"`
	Custom        *customJSON        `json:"custom,omitempty"`
	Subagent      *subagentJSON      `json:"subagent,omitempty"`
	Source        *sourceJSON        `json:"source,omitempty"`
	Extras        extrasJSON         `json:"extras,omitempty"`
}

type messageJSON struct {
	Role            string          `json:"role"`
	SourceRole      string          `json:"source_role,omitempty"`
	Content         []blockJSON     `json:"content"`
	ContentIsString bool            `json:"content_is_string,omitempty"`
	ContentIsNull   bool            `json:"content_is_null,omitempty"`
	Time            *timeJSON       `json:"time,omitempty"`
	API             string          `json:"api,omitempty"`
	Provider        string          `json:"provider,omitempty"`
	Model           string          `json:"model,omitempty"`
	Usage           *usageJSON      `json:"usage,omitempty"`
	StopReason      string          `json:"stop_reason,omitempty"`
	Error           string          `json:"error,omitempty"`
	ToolCallID      string          `json:"tool_call_id,omitempty"`
	ToolName        string          `json:"tool_name,omitempty"`
	IsError         bool            `json:"is_error,omitempty"`
	Exec            *execJSON       `json:"exec,omitempty"`
	CustomType      string          `json:"custom_type,omitempty"`
	Display         *bool           `json:"display,omitempty"`
	Details         json.RawMessage `json:"details,omitempty"`
	AuthorID        string          `json:"author_id,omitempty"`
	AuthorName      string          `json:"author_name,omitempty"`
	TokenCount      *int64          `json:"token_count,omitempty"`
	Extras          extrasJSON      `json:"extras,omitempty"`
}

type blockJSON struct {
	Type       string          `json:"type"`
	Text       string          `json:"text,omitempty"`
	Signature  string          `json:"signature,omitempty"`
	Redacted   bool            `json:"redacted,omitempty"`
	MimeType   string          `json:"mime_type,omitempty"`
	Data       string          `json:"data,omitempty"`
	URL        string          `json:"url,omitempty"`
	Filename   string          `json:"filename,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	ToolName   string          `json:"tool_name,omitempty"`
	Arguments  json.RawMessage `json:"arguments,omitempty"`
	IsError    bool            `json:"is_error,omitempty"`
	Source     *sourceJSON     `json:"source,omitempty"`
	Extras     extrasJSON      `json:"extras,omitempty"`
}

type usageJSON struct {
	Input      int64      `json:"input"`
	Output     int64      `json:"output"`
	CacheRead  int64      `json:"cache_read"`
	CacheWrite int64      `json:"cache_write"`
	Reasoning  int64      `json:"reasoning"`
	Total      *int64     `json:"total,omitempty"`
	Cost       *costJSON  `json:"cost,omitempty"`
	Extras     extrasJSON `json:"extras,omitempty"`
}

type costJSON struct {
	Input      float64    `json:"input"`
	Output     float64    `json:"output"`
	CacheRead  float64    `json:"cache_read"`
	CacheWrite float64    `json:"cache_write"`
	Total      float64    `json:"total"`
	Extras     extrasJSON `json:"extras,omitempty"`
}

type execJSON struct {
	Command        string `json:"command,omitempty"`
	Output         string `json:"output,omitempty"`
	ExitCode       *int64 `json:"exit_code,omitempty"`
	Cancelled      bool   `json:"cancelled,omitempty"`
	Truncated      bool   `json:"truncated,omitempty"`
	FullOutputPath string `json:"full_output_path,omitempty"`
}

type compactionJSON struct {
	Summary      string          `json:"summary,omitempty"`
	FirstKeptID  string          `json:"first_kept_id,omitempty"`
	TokensBefore *int64          `json:"tokens_before,omitempty"`
	TokensAfter  *int64          `json:"tokens_after,omitempty"`
	Details      json.RawMessage `json:"details,omitempty"`
	FromHook     *bool           `json:"from_hook,omitempty"`
	BranchID     string          `json:"branch_id,omitempty"`
}

type branchSummaryJSON struct {
	FromID   string          `json:"from_id,omitempty"`
	Summary  string          `json:"summary,omitempty"`
	Details  json.RawMessage `json:"details,omitempty"`
	FromHook *bool           `json:"from_hook,omitempty"`
}

type labelJSON struct {
	TargetID string `json:"target_id,omitempty"`
	Label    string `json:"label,omitempty"`
}

type modelChangeJSON struct {
	Provider string `json:"provider,omitempty"`
	ModelID  string `json:"model_id,omitempty"`
	Role     string `json:"role,omitempty"`
	Combined bool   `json:"combined,omitempty"`
}

type customJSON struct {
	CustomType string          `json:"custom_type,omitempty"`
	Data       json.RawMessage `json:"data,omitempty"`
}

type subagentJSON struct {
	ID               string `json:"id,omitempty"`
	ParentToolCallID string `json:"parent_tool_call_id,omitempty"`
	AgentType        string `json:"agent_type,omitempty"`
	AgentName        string `json:"agent_name,omitempty"`
	Result           string `json:"result,omitempty"`
	IsError          bool   `json:"is_error,omitempty"`
}

// extrasJSON is a list of members rather than an object: Extras keep the
// source's order, and a source object may hold a key twice.
type extrasJSON []fieldJSON

type fieldJSON struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}
