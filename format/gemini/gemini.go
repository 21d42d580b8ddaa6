// Package gemini reads, writes, validates and migrates the session files of
// Google's Gemini CLI (@google/gemini-cli), kept under
// ~/.gemini/tmp/<project>/chats/ ($GEMINI_CLI_HOME replaces the home). Two
// generations exist: the legacy session-*.json, one ConversationRecord
// rewritten whole on every update (version 1), and the JSON Lines file that
// replaced it (version 2): a metadata line, then MessageRecords appended
// again in full whenever they change, {"$set": ...} metadata patches and
// {"$rewindTo": id} rewinds. A sub-agent's run is a file of its own,
// chats/<parentSessionId>/<sessionId>.jsonl, with kind "subagent".
//
// See docs/gemini.md for the layout, the rules validate applies and what a
// conversion to and from it keeps.
package gemini

import (
	"bytes"

	"github.com/sesstool/sesstool/format"
	"github.com/tidwall/gjson"
)

// Name is the layout's --format name and the Origin of what it reads.
const Name = "gemini"

// The layout's versions: the generation a file belongs to.
const (
	V1 = "1" // legacy session-*.json: one ConversationRecord
	V2 = "2" // session-*.jsonl: metadata line, messages, $set and $rewindTo records
)

// File and folder names of a Gemini CLI home.
const (
	TmpDir       = "tmp"
	ChatsDir     = "chats"
	ProjectsFile = "projects.json"
	ProjectRoot  = ".project_root"
	FilePrefix   = "session-"
)

// Format is the Gemini CLI session layout.
type Format struct{}

var (
	_ format.Format        = Format{}
	_ format.Writer        = Format{}
	_ format.Stream        = Format{}
	_ format.DefaultStorer = Format{}
	_ format.Capable       = Format{}
	_ format.Placer        = Format{}
	_ format.Migrator      = Format{}
	_ format.Copier        = Format{}
	_ format.Indexer       = Format{}
)

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return []string{"gemini-cli"} }

// Detect reports whether path is a Gemini CLI session file (either
// generation) or a Gemini CLI home holding sessions.
func (f Format) Detect(path string) bool {
	if isHome(path) {
		return true
	}
	head := format.Head(path, 64<<10)
	return f.DetectHead(head) || isLegacyDoc(head)
}

// DetectHead reports whether the first line is a JSON Lines session's
// metadata line: sessionId and projectHash as strings, and nothing of
// another layout's first line (a type, a payload).
func (Format) DetectHead(head []byte) bool {
	head = bytes.TrimLeft(format.TrimBOM(head), " \t\r\n")
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line = head[:i]
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	v := gjson.ParseBytes(line)
	return isMetadata(v) && !v.Get("type").Exists() && !v.Get("payload").Exists()
}

// isMetadata is Gemini CLI's own test of a metadata record.
func isMetadata(v gjson.Result) bool {
	return v.Get("sessionId").Type == gjson.String && v.Get("projectHash").Type == gjson.String
}

// isLegacyDoc reports whether head starts a legacy ConversationRecord
// document: an object (printed over many lines) whose first members are
// sessionId and projectHash.
func isLegacyDoc(head []byte) bool {
	head = bytes.TrimLeft(format.TrimBOM(head), " \t\r\n")
	if len(head) == 0 || head[0] != '{' || bytes.IndexByte(head, '\n') < 0 {
		return false
	}
	v := gjson.ParseBytes(head)
	return isMetadata(v) && !v.Get("type").Exists()
}
