// Package copilot reads, writes and validates GitHub Copilot CLI's session
// event logs: ~/.copilot/session-state/<sessionId>/events.jsonl (with
// workspace.yaml beside it), and the older flat session-state/<id>.jsonl.
// Every line is one event {type, data, id, timestamp, parentId}, each
// parentId naming the event before it; a sub-agent's events carry agentId.
//
// See docs/copilot.md for the layout, the rules validate applies and how
// the layout maps to the neutral model.
package copilot

import (
	"bytes"

	"github.com/sesstool/sesstool/format"
	"github.com/tidwall/gjson"
)

// Name is the layout's --format name.
const Name = "copilot"

// Format is Copilot CLI's event log.
type Format struct{}

// File names of a session folder under session-state/.
const (
	EventsFile    = "events.jsonl"
	WorkspaceFile = "workspace.yaml"
	StateDir      = "session-state"
)

var (
	_ format.Format        = Format{}
	_ format.Writer        = Format{}
	_ format.Stream        = Format{}
	_ format.DefaultStorer = Format{}
	_ format.Capable       = Format{}
	_ format.Placer        = Format{}
	_ format.Indexer       = Format{}
	_ format.Unreader      = Format{}
)

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return []string{"copilot-cli"} }

// Detect reports whether path is a Copilot CLI session file, a session
// folder holding one, or a Copilot home or session-state folder holding
// sessions.
func (f Format) Detect(path string) bool {
	if files, err := sessionFiles(path); err == nil && len(files) > 0 {
		return true
	}
	return f.DetectHead(format.HeadGrow(path, 64<<10, startOpen))
}

// startOpen: the head ends inside the first line, which may still be a
// session.start event (its system details can be long).
func startOpen(head []byte) bool {
	if !format.LineOpen(head, 0) {
		return false
	}
	t := gjson.GetBytes(bytes.TrimSpace(format.TrimBOM(head)), "type")
	return !t.Exists() || t.String() == evStart
}

// DetectHead reports whether the first line is Copilot CLI's session.start
// event: type "session.start" with a copilotVersion or a copilot producer
// in its data.
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
	return isCopilotStart(gjson.ParseBytes(line))
}
