package session

import "encoding/json"

// BlockType names a kind of content block.
type BlockType string

const (
	BlockText       BlockType = "text"
	BlockThinking   BlockType = "thinking"
	BlockImage      BlockType = "image"
	BlockToolCall   BlockType = "tool_call"
	BlockToolResult BlockType = "tool_result" // ash: a result inside a user message's block list
	BlockFile       BlockType = "file"        // OpenCode file part, goat image_url with https
)

// Block is one piece of message content.
type Block struct {
	Type BlockType

	// Text and thinking.
	Text      string
	Signature string // textSignature / thinkingSignature
	Redacted  bool   // thinking redacted by the provider

	// Image and file.
	MimeType string
	Data     string // base64, without a data: prefix
	URL      string // a URL when the source referenced rather than embedded
	Filename string

	// Tool call.
	ToolCallID string
	ToolName   string
	Arguments  json.RawMessage // a JSON object, verbatim

	// Tool result inside a block list (ash); Text holds its content.
	IsError bool

	Extra  Extras // members of the source the model has no slot for
	Source        // set by layouts that keep a Private note on a block
}
