package session

import "encoding/json"

// Role says who a message is from. The neutral roles cover every layout;
// format readers map theirs onto these and keep the original spelling in
// Message.SourceRole when it differs.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleSystem    Role = "system"
	RoleDeveloper Role = "developer" // oh-my-pi
	RoleTool      Role = "tool"      // a tool result: pi toolResult, flat tool_result, goat tool, ash tool_result entry
	RoleBash      Role = "bash"      // pi bashExecution (user-run shell command)
	RolePython    Role = "python"    // oh-my-pi pythonExecution
	RoleCustom    Role = "custom"    // pi custom / legacy hookMessage, extension-injected
	RoleFiles     Role = "files"     // oh-my-pi fileMention
	RoleSummary   Role = "summary"   // a synthesized summary (compaction or branch) stored as a message
)

// Message is one conversational message with its content blocks.
type Message struct {
	Role       Role
	SourceRole string // the role as the source spelled it, when not the neutral name (e.g. "toolResult", "hookMessage")

	// Content is the message body. A plain string in the source is one text
	// block with ContentIsString set, so writers can restore the string form.
	Content         []Block
	ContentIsString bool
	ContentIsNull   bool // goat: an assistant turn that only calls tools has content null

	Time Time // the message's own timestamp (pi: Unix ms inside the message)

	// Assistant fields.
	API        string
	Provider   string
	Model      string
	Usage      *Usage
	StopReason string
	Error      string

	// Tool result fields (RoleTool).
	ToolCallID string
	ToolName   string
	IsError    bool

	// Shell execution fields (RoleBash, RolePython).
	Exec *Exec

	// Custom message fields (RoleCustom, and custom_message entries).
	CustomType string
	Display    *bool
	Details    json.RawMessage

	// Author fields (ash history: user_id, username, display_name).
	AuthorID   string
	AuthorName string

	TokenCount *int64 // ash token_count
	Extra      Extras
}

// Exec is a shell or Python run the user started from the agent's prompt.
type Exec struct {
	Command        string // or code, for Python
	Output         string
	ExitCode       *int64
	Cancelled      bool
	Truncated      bool
	FullOutputPath string
}

// Usage is token usage and cost of one assistant message.
type Usage struct {
	Input      int64
	Output     int64
	CacheRead  int64
	CacheWrite int64
	Reasoning  int64
	Total      *int64 // absent in some sources (old pi files)
	Cost       *Cost
	Extra      Extras
}

// Cost is money spent, in US dollars.
type Cost struct {
	Input      float64
	Output     float64
	CacheRead  float64
	CacheWrite float64
	Total      float64
	Extra      Extras
}

// TotalTokens returns Total when the source gave it, else the sum.
func (u *Usage) TotalTokens() int64 {
	if u == nil {
		return 0
	}
	if u.Total != nil {
		return *u.Total
	}
	return u.Input + u.Output + u.CacheRead + u.CacheWrite
}

// Text joins the message's text blocks with newlines.
func (m *Message) Text() string {
	var s string
	for _, b := range m.Content {
		if b.Type == BlockText {
			if s != "" {
				s += "\n"
			}
			s += b.Text
		}
	}
	return s
}
