// Package qwen reads, writes and validates the session files of Qwen Code
// (npm @qwen-code/qwen-code): one JSONL file per session under
// $QWEN_HOME/projects/<cwd with non-alphanumerics as '-'>/chats/<sessionId>.jsonl
// (or ~/.qwen). A line has Claude Code's envelope (uuid, parentUuid,
// sessionId, cwd, version, linking the lines into a tree) around a Gemini
// message ({role: "user"|"model", parts}), and the line types are Qwen
// Code's own: user, assistant, tool_result and system with a subtype
// (chat_compression, rewind, parent_session, custom_title, ui_telemetry, …).
//
// See docs/qwen.md for the layout, the rules validate applies and how the
// layout maps to the neutral model.
package qwen

import (
	"bytes"

	"github.com/sesstool/sesstool/format"
	"github.com/tidwall/gjson"
)

// Name is the layout's --format name.
const Name = "qwen"

// The layout's folder names under its home.
const (
	ProjectsDir = "projects"
	ChatsDir    = "chats"
)

// Format is the Qwen Code layout.
type Format struct{}

var (
	_ format.Format        = Format{}
	_ format.Writer        = Format{}
	_ format.Stream        = Format{}
	_ format.DefaultStorer = Format{}
	_ format.Capable       = Format{}
	_ format.Placer        = Format{}
)

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return []string{"qwen-code"} }

const headDetectSz = 64 << 10

// Detect reports whether path is a Qwen Code session file, or a home (a
// folder with projects/*/chats/ holding one).
func (f Format) Detect(path string) bool {
	if isHome(path) {
		return true
	}
	return f.DetectHead(format.Head(path, headDetectSz))
}

// DetectHead reports whether head is the start of a Qwen Code session: its
// first line carries the envelope (a string uuid and sessionId, a type),
// and some line of the head is Qwen's rather than Claude Code's, whose
// envelope is the same (isQwenLine). A last line cut off by the head is
// judged by its member names alone.
func (Format) DetectHead(head []byte) bool {
	head = bytes.TrimLeft(format.TrimBOM(head), " \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	first := true
	for len(head) > 0 {
		line, rest, whole := bytes.Cut(head, []byte("\n"))
		head = rest
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if !whole || !gjson.ValidBytes(line) {
			if !whole {
				s := line
				return bytes.Contains(s, []byte(`"sessionId"`)) &&
					(bytes.Contains(s, []byte(`"parts":[`)) || bytes.Contains(s, []byte(`"systemPayload":`)) || bytes.Contains(s, []byte(`"role":"model"`)))
			}
			if first {
				return false
			}
			continue
		}
		v := gjson.ParseBytes(line)
		if first && !isEnvelope(v) {
			return false
		}
		first = false
		if isQwenLine(v) {
			return true
		}
	}
	return false
}

// isEnvelope: the members every line of a session has.
func isEnvelope(v gjson.Result) bool {
	return v.IsObject() && v.Get("uuid").Type == gjson.String && v.Get("sessionId").Type == gjson.String && v.Get("type").Type == gjson.String
}

// isQwenLine reports whether an envelope line is Qwen Code's and not
// Claude Code's: its message is Gemini's ({role, parts}, the role "user"
// or "model"), or it is one of the line kinds Claude Code does not have
// (a tool_result line, a system line with a systemPayload).
func isQwenLine(v gjson.Result) bool {
	if !isEnvelope(v) {
		return false
	}
	if m := v.Get("message"); m.IsObject() && m.Get("parts").IsArray() && !m.Get("content").Exists() {
		return true
	}
	switch v.Get("type").String() {
	case "tool_result":
		return v.Get("message").IsObject() || v.Get("toolCallResult").Exists()
	case "system":
		return v.Get("subtype").Type == gjson.String && v.Get("systemPayload").Exists()
	}
	return false
}
