package tree

import (
	"bytes"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/tidwall/gjson"
)

// The sequential rules run on one goroutine for the whole file, so their
// cost per line bounds validation however many workers parse. They used to
// look each field up with gjson.Get, which scans the line from its start
// every time (and to its end for an absent key, such as id and parentId in
// every v1 entry). Now one walk of the line finds every top-level field the
// rules read; each is the gjson.Result gjson.Get would return (first
// occurrence, escaped keys compared decoded), so the findings are the same.

// Top-level fields the rules read, by index into lineFields.
const (
	fType = iota
	fTimestamp
	fVersion
	fID
	fParentID
	fMessage
	fFirstKeptEntryID
	fFirstKeptEntryIndex
	fFromID
	fTargetID
	nFields
)

// fieldKeys are the keys of the fields, by index.
var fieldKeys = []string{fType: "type", fTimestamp: "timestamp", fVersion: "version", fID: "id", fParentID: "parentId",
	fMessage: "message", fFirstKeptEntryID: "firstKeptEntryId", fFirstKeptEntryIndex: "firstKeptEntryIndex",
	fFromID: "fromId", fTargetID: "targetId"}

// lineFields holds a line's top-level fields; an absent one is the zero
// Result, as gjson.Get returns for a missing key.
type lineFields struct {
	v       [nFields]gjson.Result
	message []byte // the message's bytes, within the line
}

// readFields walks the object b once. b must be a valid JSON object (the
// rules see only lines the engine parsed).
func readFields(b []byte) (f lineFields) {
	w, ok := jsonx.WalkObject(b)
	if !ok {
		return f
	}
	var seen [nFields]bool
	for m, ok := w.Next(); ok; m, ok = w.Next() {
		k := keyOf(b, m, fieldKeys)
		if k >= 0 && !seen[k] {
			seen[k] = true
			f.v[k] = m.Value(b)
			if k == fMessage {
				f.message = b[m.ValStart:m.ValEnd]
			}
		}
	}
	return f
}

// keyOf returns the index of m's key in keys, or -1. A key with escapes is
// decoded first (rare: gjson compares keys decoded).
func keyOf(b []byte, m jsonx.Member, keys []string) int {
	raw := b[m.KeyStart+1 : m.KeyEnd-1]
	if bytes.IndexByte(raw, '\\') >= 0 {
		raw = []byte(gjson.ParseBytes(b[m.KeyStart:m.KeyEnd]).Str)
	}
	for i, k := range keys {
		if string(raw) == k { // compared, not converted: no allocation
			return i
		}
	}
	return -1
}

// msgFields is what the rules read of a message: its role and, depending on
// the role, the tool calls it made or the call it answers.
type msgFields struct {
	role       gjson.Result
	toolCallID gjson.Result // toolResult only
	content    []byte       // assistant only: the raw content value
}

const (
	mRole = iota
	mContent
	mToolCallID
)

var msgKeys = []string{mRole: "role", mContent: "content", mToolCallID: "toolCallId"}

// readMessage walks the message object b until it has what the role needs:
// a user message stops at its role, without walking past its content.
func readMessage(b []byte) (f msgFields) {
	w, ok := jsonx.WalkObject(b)
	if !ok {
		return f
	}
	var seen [3]bool
	for m, ok := w.Next(); ok; m, ok = w.Next() {
		k := keyOf(b, m, msgKeys)
		if k < 0 || seen[k] {
			continue
		}
		seen[k] = true
		switch k {
		case mRole:
			f.role = m.Value(b)
		case mContent:
			f.content = b[m.ValStart:m.ValEnd]
		case mToolCallID:
			f.toolCallID = m.Value(b)
		}
		if seen[mRole] {
			switch f.role.String() {
			case "assistant":
				if seen[mContent] {
					return f
				}
			case "toolResult":
				if seen[mToolCallID] {
					return f
				}
			default:
				return f
			}
		}
	}
	return f
}

// eachToolCall calls fn with the id of every content block of type toolCall
// that has a string id, in order. It visits what gjson's ForEach on the
// content visits: an array's elements, an object's member values, and
// nothing inside a string or number.
func eachToolCall(content []byte, fn func(id string)) {
	w, ok := jsonx.WalkArray(content)
	if !ok {
		if w, ok = jsonx.WalkObject(content); !ok {
			return
		}
	}
	for m, ok := w.Next(); ok; m, ok = w.Next() {
		if id, ok := toolCallID(content[m.ValStart:m.ValEnd]); ok {
			fn(id)
		}
	}
}

const (
	bType = iota
	bID
)

var blockKeys = []string{bType: "type", bID: "id"}

// toolCallID returns the block's id when the block is a toolCall with a
// string id. It stops as soon as the block's first type (and, for a tool
// call, its first id) is known.
func toolCallID(b []byte) (string, bool) {
	w, ok := jsonx.WalkObject(b)
	if !ok {
		return "", false
	}
	var typ, id gjson.Result
	var seenType, seenID bool
	for m, ok := w.Next(); ok; m, ok = w.Next() {
		switch keyOf(b, m, blockKeys) {
		case bType:
			if !seenType {
				seenType, typ = true, m.Value(b)
				if typ.String() != "toolCall" {
					return "", false
				}
			}
		case bID:
			if !seenID {
				seenID, id = true, m.Value(b)
			}
		}
		if seenType && seenID {
			break
		}
	}
	if typ.String() != "toolCall" || id.Type != gjson.String {
		return "", false
	}
	return id.Str, true
}
