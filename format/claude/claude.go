// Package claude reads, writes and validates the session files of Anthropic's
// Claude Code: one JSONL file per session under
// $CLAUDE_CONFIG_DIR/projects/<encoded cwd>/<session uuid>.jsonl (or
// ~/.claude), whose lines link into a tree by uuid/parentUuid, with the
// session's sub-agent runs in <uuid>/subagents/agent-<id>.jsonl (since
// 2.1.2) or agent-<id>.jsonl beside the session (before), and large tool
// outputs in <uuid>/tool-results/.
//
// See docs/claude.md for the layout, the rules validate applies and how the
// layout maps to the neutral model.
package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/sesstool/sesstool/format"
)

// Name is the layout's --format name.
const Name = "claude"

// The layout's folder and file names.
const (
	ProjectsDir  = "projects"
	SubagentDir  = "subagents"
	ToolResults  = "tool-results"
	agentPrefix  = "agent-"
	metaSuffix   = ".meta.json"
	headDetectSz = 64 << 10
)

// Format is the Claude Code layout.
type Format struct{}

var (
	_ format.Format        = Format{}
	_ format.Writer        = Format{}
	_ format.DefaultStorer = Format{}
	_ format.Capable       = Format{}
	_ format.Unreader      = Format{}
)

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return []string{"claude-code"} }

// Detect reports whether path is a Claude Code session file, a project
// folder holding one, or a store (a folder with projects/ holding one).
func (f Format) Detect(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if !fi.IsDir() {
		return detectHead(format.Head(path, headDetectSz))
	}
	if sub := projectsOf(path); sub != "" {
		dirs, _ := os.ReadDir(sub)
		for _, d := range dirs {
			if d.IsDir() && projectHasSession(filepath.Join(sub, d.Name())) {
				return true
			}
		}
		return false
	}
	return projectHasSession(path)
}

// projectHasSession reports whether dir directly holds a session file.
func projectHasSession(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	for _, p := range files {
		if !isAgentFile(p) && detectHead(format.Head(p, headDetectSz)) {
			return true
		}
	}
	return false
}

// detectHead judges the first bytes of a file: its first line is a JSON
// object of Claude Code's, and some line in the head is a line of the
// conversation (isConversation), as validate's no-conversation rule asks.
// A last line cut off by the head is judged by its member names alone.
func detectHead(head []byte) bool {
	head = bytes.TrimLeft(format.TrimBOM(head), " \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	if !firstLineIsClaude(head) {
		return false
	}
	conv := false
	for len(head) > 0 {
		line, rest, whole := bytes.Cut(head, []byte("\n"))
		if !whole {
			s := string(line)
			return conv || strings.Contains(s, `"uuid"`) && strings.Contains(s, `"sessionId"`) ||
				strings.Contains(s, `"summary"`) && strings.Contains(s, `"leafUuid"`)
		}
		if gjson.ValidBytes(line) {
			v := gjson.ParseBytes(line)
			if geminiShaped(v) {
				return false
			}
			conv = conv || isConversation(v)
		}
		head = rest
	}
	return conv
}

// geminiShaped reports whether a line in Claude Code's envelope is Qwen
// Code's, which writes the same envelope around Gemini's messages
// ({role: "user"|"model", parts}) and has tool_result lines and system
// lines with a systemPayload, none of which Claude Code writes. Such a
// file is not claimed, whatever else its head holds.
func geminiShaped(v gjson.Result) bool {
	if v.Get("uuid").Type != gjson.String || v.Get("sessionId").Type != gjson.String {
		return false
	}
	if m := v.Get("message"); m.IsObject() && m.Get("parts").IsArray() && !m.Get("content").Exists() {
		return true
	}
	switch v.Get("type").String() {
	case "tool_result":
		return true
	case "system":
		return v.Get("systemPayload").Exists()
	}
	return false
}

// isConversation reports whether a line is one of the conversation's, the
// lines Claude Code lists a session by: one with a uuid and a sessionId,
// or a summary naming its leaf. Detection, validate and the writer all ask
// this one question.
func isConversation(v gjson.Result) bool {
	return v.Get("uuid").Type == gjson.String && v.Get("sessionId").Type == gjson.String ||
		v.Get("type").String() == "summary" && v.Get("leafUuid").Exists()
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// isAgentFile reports whether p is a sub-agent transcript (agent-<id>.jsonl),
// which belongs to its parent session and is never a session of its own.
func isAgentFile(p string) bool {
	b := filepath.Base(p)
	return strings.HasPrefix(b, agentPrefix) && strings.HasSuffix(b, ".jsonl")
}

// projectsOf is the folder of project folders path names: its projects/
// (a store), or path itself when it is a store's projects/; "" otherwise.
func projectsOf(path string) string {
	if sub := filepath.Join(path, ProjectsDir); isDir(sub) {
		return sub
	}
	if filepath.Base(filepath.Clean(path)) == ProjectsDir && !projectHasSession(path) {
		return path
	}
	return ""
}

// firstLineIsClaude: a Claude Code file begins with a line of one of its
// types, or one holding a sessionId (a newer type; claudeFirstLine). Another
// layout's file that quotes Claude Code lines further on (a pi session
// converted from one keeps them in custom entries) begins with its own
// header, and is not claimed. A first line longer than head is judged by
// the rest of head alone.
func firstLineIsClaude(head []byte) bool {
	line, _, whole := bytes.Cut(head, []byte("\n"))
	if !whole || !gjson.ValidBytes(line) {
		return true
	}
	v := gjson.ParseBytes(line)
	return claudeFirstLine(v.Get("type"), v.Get("sessionId"), v.Get("uuid"))
}

// claudeFirstLine is what a Claude Code file's first line must be, for
// detection and for validate's first-line rule alike: a line of a type
// Claude Code writes, or one carrying its camelCase sessionId with a type
// or a uuid (a line type of a newer version).
func claudeFirstLine(typ, sid, id gjson.Result) bool {
	return knownTypes[typ.String()] || sid.Type == gjson.String && (typ.Type == gjson.String || id.Type == gjson.String)
}
