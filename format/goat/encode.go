package goat

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// encodeLine spells one messages.jsonl line from the model. Extras are only
// emitted for goat-origin entries (the adaptation counts another layout's
// as lost).
func encodeLine(e *session.Entry, id string, goatOrigin bool) []byte {
	o := &jsonx.Obj{}
	o.Str("uuid", id)
	o.Str("timestamp", timeString(e.Time, goatOrigin))
	o.Raw("message", encodeMessage(e.Message, goatOrigin))
	if goatOrigin {
		addExtras(o, e.Extra, "")
	}
	return o.Bytes()
}

func timeString(t session.Time, goatOrigin bool) string {
	if goatOrigin && t.Raw != "" {
		return t.Raw
	}
	if t.T.IsZero() {
		return time.Time{}.Format(time.RFC3339Nano)
	}
	return t.T.Format(time.RFC3339Nano)
}

func encodeMessage(m *session.Message, goatOrigin bool) []byte {
	o := &jsonx.Obj{}
	o.Str("role", string(m.Role))
	var parts, calls [][]byte
	var text []session.Block
	for _, b := range m.Content {
		if b.Type == session.BlockToolCall {
			calls = append(calls, encodeToolCall(b, goatOrigin))
			continue
		}
		text = append(text, b)
		parts = append(parts, encodePart(b, goatOrigin))
	}
	switch {
	case m.ContentIsNull && len(text) == 0:
		o.Null("content")
	case m.ContentIsString && len(text) == 1 && text[0].Type == session.BlockText:
		o.Str("content", text[0].Text)
	default:
		o.Raw("content", jsonx.Arr(parts))
	}
	if len(calls) > 0 {
		o.Raw("tool_calls", jsonx.Arr(calls))
	}
	if m.ToolCallID != "" {
		o.Str("tool_call_id", m.ToolCallID)
	}
	if goatOrigin {
		addExtras(o, m.Extra, "")
	}
	return o.Bytes()
}

func encodePart(b session.Block, goatOrigin bool) []byte {
	o := &jsonx.Obj{}
	switch b.Type {
	case session.BlockText:
		o.Str("type", "text").Str("text", b.Text)
	case session.BlockImage:
		o.Str("type", "image_url")
		io := &jsonx.Obj{}
		io.Str("url", imageURL(b))
		if goatOrigin {
			addExtras(io, b.Extra, "image_url.")
		}
		o.Raw("image_url", io.Bytes())
	}
	if goatOrigin {
		addExtras(o, b.Extra, "")
	}
	return o.Bytes()
}

func imageURL(b session.Block) string {
	if b.Data != "" || b.URL == "" {
		return "data:" + b.MimeType + ";base64," + b.Data
	}
	return b.URL
}

func encodeToolCall(b session.Block, goatOrigin bool) []byte {
	o := &jsonx.Obj{}
	if goatOrigin {
		if v := b.Extra.Get("index"); v != nil {
			o.Raw("index", v)
		}
	}
	if b.ToolCallID != "" {
		o.Str("id", b.ToolCallID)
	}
	var note *callNote
	if b.Origin == Name {
		note, _ = b.Private.(*callNote)
	}
	switch {
	case !goatOrigin, note != nil && note.Type:
		o.Str("type", "function")
	case b.Extra.Get("type") != nil:
		o.Raw("type", b.Extra.Get("type"))
	}
	f := &jsonx.Obj{}
	if b.ToolName != "" {
		f.Str("name", b.ToolName)
	}
	switch {
	case b.Arguments != nil:
		f.Str("arguments", compactString(b.Arguments, goatOrigin))
	case goatOrigin && b.Extra.Get("function.arguments") != nil:
		f.Raw("arguments", b.Extra.Get("function.arguments"))
	default:
		f.Str("arguments", "{}")
	}
	if goatOrigin {
		addExtras(f, b.Extra, "function.")
	}
	o.Raw("function", f.Bytes())
	if goatOrigin {
		for _, x := range b.Extra {
			if x.Key != "index" && x.Key != "type" && !hasPrefix(x.Key, "function.") {
				o.Raw(x.Key, x.Value)
			}
		}
	}
	return o.Bytes()
}

// compactString keeps goat's own argument text as read; arguments from other
// layouts are compacted, as goat's encoder would send them.
func compactString(args json.RawMessage, goatOrigin bool) string {
	if goatOrigin {
		return string(args)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, args); err != nil {
		return string(args)
	}
	return b.String()
}

// addExtras emits the Extras whose key starts with prefix (stripped), except
// keys with a further known prefix when prefix is "".
func addExtras(o *jsonx.Obj, x session.Extras, prefix string) {
	for _, f := range x {
		if prefix == "" {
			if hasPrefix(f.Key, "image_url.") || hasPrefix(f.Key, "function.") {
				continue
			}
			o.Raw(f.Key, f.Value)
			continue
		}
		if hasPrefix(f.Key, prefix) && !(prefix == "function." && f.Key == "function.arguments") {
			o.Raw(f.Key[len(prefix):], f.Value)
		}
	}
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
