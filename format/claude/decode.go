package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// lineSlots are the members of a conversation line the model holds.
var lineSlots = map[string]bool{"type": true, "uuid": true, "parentUuid": true, "timestamp": true, "message": true}

// sessionSlots are the members every line repeats that the Meta holds; a
// line keeps them in Extras only when its value differs from the session's.
var sessionSlots = []string{"sessionId", "cwd", "version"}

// decodeLine turns one line into an entry. meta is the session's, for the
// members every line repeats.
func decodeLine(raw []byte, n int, meta *session.Meta) (*session.Entry, error) {
	v := gjson.ParseBytes(raw)
	if !v.IsObject() {
		return nil, fmt.Errorf("a line must be a JSON object")
	}
	typ := v.Get("type").String()
	e := &session.Entry{Type: typ, Source: session.Source{Origin: Name, Raw: raw, Line: n}}
	nt := &note{}
	e.Private = nt
	e.ID = v.Get("uuid").String()
	if p := v.Get("parentUuid"); p.Type == gjson.String {
		e.ParentID = p.String()
	} else if p.Exists() {
		nt.parentNull = true
		e.ParentID = v.Get("logicalParentUuid").String()
	}
	if t := v.Get("timestamp"); t.Type == gjson.String {
		e.Time, _ = session.ParseTime(t.String())
	}
	switch typ {
	case "user", "assistant":
		if m := v.Get("message"); m.IsObject() {
			msg, err := decodeMessage(m, typ)
			if err != nil {
				return nil, err
			}
			e.Kind, e.Message = session.KindMessage, msg
			e.Extra = extras(v, lineSlots, meta, nt)
			if typ == "user" {
				asToolResult(msg, nt)
				if v.Get("isCompactSummary").Type == gjson.True {
					// The summary Claude Code continues from after /compact.
					// Its message stays in the note, for this layout's writer.
					e.Kind, e.Message, nt.summary = session.KindCompaction, nil, msg
					e.Compaction = &session.Compaction{Summary: msg.Text()}
				}
			}
			return e, nil
		}
	case "custom-title", "ai-title":
		key := map[string]string{"custom-title": "customTitle", "ai-title": "aiTitle"}[typ]
		if t := v.Get(key); t.Type == gjson.String {
			e.Kind, e.Title = session.KindSessionInfo, t.String()
			e.Extra = extras(v, map[string]bool{"type": true, key: true}, meta, nt)
			return e, nil
		}
	}
	// Every other line: kept whole, for this layout's writer alone.
	e.Kind = session.KindOther
	e.Custom = &session.Custom{CustomType: typ, Data: raw}
	return e, nil
}

// extras are v's members outside slots; the session members equal to
// meta's are left to the Meta and noted.
func extras(v gjson.Result, slots map[string]bool, meta *session.Meta, nt *note) session.Extras {
	var x session.Extras
	v.ForEach(func(k, val gjson.Result) bool {
		key := k.String()
		if slots[key] {
			return true
		}
		if same := sessionValue(meta, key); same != "" && val.Type == gjson.String && val.String() == same {
			nt.omitted = append(nt.omitted, key)
			return true
		}
		x = append(x, session.Field{Key: key, Value: json.RawMessage(val.Raw)})
		return true
	})
	return x
}

func sessionValue(m *session.Meta, key string) string {
	switch key {
	case "sessionId":
		return m.ID
	case "cwd":
		return m.Cwd
	case "version":
		return m.Version
	}
	return ""
}

// messageSlots are the members of an Anthropic message the model holds.
var messageSlots = map[string]bool{"role": true, "content": true, "model": true, "usage": true, "stop_reason": true}

func decodeMessage(m gjson.Result, typ string) (*session.Message, error) {
	msg := &session.Message{Role: session.Role(typ)}
	if r := m.Get("role"); r.Type == gjson.String && r.String() != typ {
		msg.SourceRole = r.String()
	}
	c := m.Get("content")
	switch {
	case c.Type == gjson.String:
		msg.Content = []session.Block{{Type: session.BlockText, Text: c.String()}}
		msg.ContentIsString = true
	case c.IsArray():
		for _, b := range c.Array() {
			msg.Content = append(msg.Content, decodeBlock(b))
		}
	case c.Type == gjson.Null:
		msg.ContentIsNull = true
	}
	msg.Model = m.Get("model").String()
	if s := m.Get("stop_reason"); s.Type == gjson.String {
		msg.StopReason = s.String()
	}
	if u := m.Get("usage"); u.IsObject() {
		msg.Usage = decodeUsage(u)
	}
	m.ForEach(func(k, val gjson.Result) bool {
		key := k.String()
		keep := !messageSlots[key]
		switch key {
		case "role":
			keep = m.Get("role").Type != gjson.String
		case "content":
			keep = !c.IsArray() && c.Type != gjson.String && c.Type != gjson.Null
		case "model":
			keep = val.Type != gjson.String
		case "stop_reason":
			keep = val.Type != gjson.String // null stays as read
		case "usage":
			keep = !val.IsObject()
		}
		if keep {
			msg.Extra = append(msg.Extra, session.Field{Key: key, Value: json.RawMessage(val.Raw)})
		}
		return true
	})
	return msg, nil
}

var usageSlots = map[string]bool{"input_tokens": true, "output_tokens": true, "cache_read_input_tokens": true, "cache_creation_input_tokens": true}

func decodeUsage(u gjson.Result) *session.Usage {
	us := &session.Usage{}
	u.ForEach(func(k, v gjson.Result) bool {
		key := k.String()
		if !usageSlots[key] || v.Type != gjson.Number || strings.ContainsAny(v.Raw, ".eE-") {
			us.Extra = append(us.Extra, session.Field{Key: key, Value: json.RawMessage(v.Raw)})
			return true
		}
		switch key {
		case "input_tokens":
			us.Input = v.Int()
		case "output_tokens":
			us.Output = v.Int()
		case "cache_read_input_tokens":
			us.CacheRead = v.Int()
		case "cache_creation_input_tokens":
			us.CacheWrite = v.Int()
		}
		return true
	})
	return us
}

// blockTypes maps Claude's content block types onto the model's.
var blockTypes = map[string]session.BlockType{
	"text": session.BlockText, "thinking": session.BlockThinking, "redacted_thinking": session.BlockThinking,
	"tool_use": session.BlockToolCall, "tool_result": session.BlockToolResult, "image": session.BlockImage,
}

func decodeBlock(b gjson.Result) session.Block {
	typ := b.Get("type").String()
	bt, known := blockTypes[typ]
	if !known || !b.IsObject() {
		// A block the model has no type for (tool_reference, server_tool_use,
		// document, ...): kept under its own type with every member.
		blk := session.Block{Type: session.BlockType(typ)}
		if typ == "" {
			blk.Type = "unknown"
		}
		b.ForEach(func(k, v gjson.Result) bool {
			if k.String() != "type" {
				blk.Extra = append(blk.Extra, session.Field{Key: k.String(), Value: json.RawMessage(v.Raw)})
			}
			return true
		})
		if !b.IsObject() {
			blk.Extra = session.Extras{{Key: "", Value: json.RawMessage(b.Raw)}}
		}
		return blk
	}
	blk := session.Block{Type: bt}
	slots := map[string]bool{"type": true}
	str := func(key string, dst *string) {
		if v := b.Get(key); v.Type == gjson.String {
			*dst = v.String()
			slots[key] = true
		}
	}
	switch typ {
	case "text":
		str("text", &blk.Text)
	case "thinking":
		str("thinking", &blk.Text)
		str("signature", &blk.Signature)
	case "redacted_thinking":
		blk.Redacted = true
	case "tool_use":
		str("id", &blk.ToolCallID)
		str("name", &blk.ToolName)
		if in := b.Get("input"); in.IsObject() {
			blk.Arguments = json.RawMessage(in.Raw)
			slots["input"] = true
		}
	case "tool_result":
		str("tool_use_id", &blk.ToolCallID)
		if c := b.Get("content"); c.Type == gjson.String {
			blk.Text, slots["content"] = c.String(), true
		} else if c.IsArray() {
			blk.Text = joinText(c) // the array itself stays in Extra
		}
		if e := b.Get("is_error"); e.Type == gjson.True {
			blk.IsError, slots["is_error"] = true, true
		}
	case "image":
		src := b.Get("source")
		if src.IsObject() && src.Get("type").String() == "base64" && len(src.Map()) == 3 {
			str2 := func(k string) string { return src.Get(k).String() }
			blk.MimeType, blk.Data = str2("media_type"), str2("data")
			slots["source"] = true
		} else if src.IsObject() && src.Get("type").String() == "url" && len(src.Map()) == 2 {
			blk.URL, slots["source"] = src.Get("url").String(), true
		}
	}
	b.ForEach(func(k, v gjson.Result) bool {
		if !slots[k.String()] {
			blk.Extra = append(blk.Extra, session.Field{Key: k.String(), Value: json.RawMessage(v.Raw)})
		}
		return true
	})
	if bt == session.BlockToolResult {
		markPersisted(&blk)
	}
	return blk
}

// markPersisted marks a tool result's block whose text is the preview of
// a side file in tool-results/.
func markPersisted(b *session.Block) {
	if persistedFile(b.Text) != "" {
		b.Source = session.Source{Origin: Name, Private: persisted{}}
	}
}

// joinText is the text of a tool result given as an array of blocks.
func joinText(c gjson.Result) string {
	var sb bytes.Buffer
	for _, x := range c.Array() {
		if x.Get("type").String() == "text" {
			if sb.Len() > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString(x.Get("text").String())
		}
	}
	return sb.String()
}

// asToolResult makes a user line that carries one tool result and nothing
// else a tool message, as the model has tool results: its content is the
// result's, and the block's other members go in the note.
func asToolResult(m *session.Message, nt *note) {
	if len(m.Content) != 1 || m.Content[0].Type != session.BlockToolResult || m.ContentIsString {
		return
	}
	b := m.Content[0]
	r := &result{}
	var inner gjson.Result
	for _, f := range b.Extra {
		switch f.Key {
		case "content":
			inner = gjson.ParseBytes(f.Value)
		case "is_error":
			r.isError = true // present, and not true (else it is a slot)
			r.extra = append(r.extra, f)
		default:
			r.extra = append(r.extra, f)
		}
	}
	if b.IsError {
		r.isError = true
	}
	m.Role, m.ToolCallID, m.IsError = session.RoleTool, b.ToolCallID, b.IsError
	switch {
	case inner.IsArray():
		m.Content = nil
		for _, x := range inner.Array() {
			blk := decodeBlock(x)
			if blk.Type == session.BlockText {
				markPersisted(&blk)
			}
			m.Content = append(m.Content, blk)
		}
	case inner.Exists():
		r.extra = append(r.extra, session.Field{Key: "content", Value: json.RawMessage(inner.Raw)})
		m.Content = nil
	default:
		m.Content = []session.Block{{Type: session.BlockText, Text: b.Text, Source: b.Source}}
		m.ContentIsString = true
	}
	nt.result = r
}
