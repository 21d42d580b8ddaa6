// Package codex reads, writes and validates the session files of OpenAI's
// Codex CLI: rollout files, one JSON object per line, each a
// {timestamp, type, payload} record (session_meta, response_item,
// event_msg, turn_context, compacted), kept under $CODEX_HOME/sessions/
// YYYY/MM/DD/rollout-<time>-<uuid>.jsonl. It also reads the two older
// generations: the early Rust JSONL without the wrapper (a bare header,
// then bare response items and {"record_type":"state"} markers) and the
// TypeScript CLI's single JSON document {"session":{...},"items":[...]}.
//
// See docs/codex.md for the layout, the rules validate applies and what a
// conversion to and from it keeps.
package codex

import (
	"bytes"

	"github.com/sesstool/sesstool/format"
	"github.com/tidwall/gjson"
)

// Name is the layout's --format name and the Origin of what it reads.
const Name = "codex"

// File and folder names of a Codex home ($CODEX_HOME, ~/.codex).
const (
	SessionsDir = "sessions"
	ArchivedDir = "archived_sessions"
	IndexFile   = "session_index.jsonl"
	StateDB     = "state.db"
)

// Format is the Codex CLI rollout layout.
type Format struct{}

var (
	_ format.Format        = Format{}
	_ format.Writer        = Format{}
	_ format.Stream        = Format{}
	_ format.DefaultStorer = Format{}
	_ format.Capable       = Format{}
	_ format.Placer        = Format{}
	_ format.Unreader      = Format{}
)

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return []string{"codex-cli"} }

// Detect reports whether path is a rollout file (either JSONL generation,
// or the TypeScript era's JSON document) or a Codex home holding sessions.
func (f Format) Detect(path string) bool {
	if isHome(path) {
		return true
	}
	head := format.Head(path, 64<<10)
	return f.DetectHead(head) || isLegacyDoc(path, head)
}

// DetectHead reports whether the first line is a rollout's first line: a
// session_meta record, or the early Rust CLI's bare header {id, timestamp,
// instructions|git} with no type.
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
	// A long first line (base instructions, tool lists) may not fit in
	// head; gjson reads the members before the cut all the same.
	v := gjson.ParseBytes(line)
	if v.Get("type").String() == "session_meta" {
		return v.Get("payload").IsObject() || !gjson.ValidBytes(line)
	}
	if v.Get("type").Exists() || v.Get("payload").Exists() {
		return false
	}
	return legacyHeader(v)
}

// legacyHeader reports whether v is the early Rust CLI's bare first line.
func legacyHeader(v gjson.Result) bool {
	return v.Get("id").Type == gjson.String && v.Get("timestamp").Type == gjson.String &&
		(v.Get("instructions").Exists() || v.Get("git").Exists())
}
