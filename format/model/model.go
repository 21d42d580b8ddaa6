// Package model dumps the neutral session model (package session) as
// NDJSON: one line for the Meta, then one line per Entry, in the order the
// reader gave them. It is a debugging and test aid, not an agent's layout:
// what a reader put into the model can be looked at, diffed and checked
// against a JSON Schema (schema/model/v1) without going through any
// writer's mapping.
//
// The dump holds every model slot and the Extras verbatim, but never source
// bytes (Raw) or a layout's private data, so a layout's own writer cannot
// restore its input from it. Reading a dump back (convert --from model)
// gives a session whose Origin is "model": every writer then treats it as
// a session from another layout.
//
// docs/model.md describes the encoding.
package model

import (
	"bytes"

	"github.com/sesstool/sesstool/format"
	"github.com/tidwall/gjson"
)

// Name is the --to and --from name, and the Origin of sessions read from a dump.
const Name = "model"

// Version is the dump's encoding version, the meta line's "model" member.
const Version = 1

// Format is the model dump.
type Format struct{}

var (
	_ format.Format = Format{}
	_ format.Writer = Format{}
	_ format.Stream = Format{}
)

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return nil }

// Detect reports whether path is a model dump.
func (f Format) Detect(path string) bool {
	return f.DetectHead(format.Head(path, 64<<10))
}

// DetectHead reports whether the first line is a dump's meta line:
// {"model":1,"meta":{...}}. No agent writes a "model" number beside a
// "meta" object on its first line.
func (Format) DetectHead(head []byte) bool {
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line = head[:i]
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' || !gjson.ValidBytes(line) {
		return false
	}
	v := gjson.ParseBytes(line)
	return v.Get("model").Type == gjson.Number && v.Get("meta").IsObject()
}
