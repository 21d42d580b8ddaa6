package flat

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// Decoding maps one line onto the model. Every member the model has a slot
// for is taken; the rest go to Extras in source order, so the canonical
// encoding of the result holds the same JSON value as the line.

func decodeHeader(line []byte) (*session.Meta, error) {
	m := &session.Meta{Source: session.Source{Origin: Name, Raw: line}}
	err := jsonx.Members(line, func(k string, v []byte) {
		r := gjson.ParseBytes(v)
		switch {
		case k == "type":
		case k == "id" && r.Type == gjson.String:
			m.ID = r.String()
		case k == "version" && r.Type == gjson.Number:
			m.Version = r.Raw
		case k == "timestamp" && r.Type == gjson.String:
			m.Created = entryTime(r.String())
		case k == "cwd" && r.Type == gjson.String:
			m.Cwd = r.String()
		default:
			m.Extra = append(m.Extra, session.Field{Key: k, Value: json.RawMessage(v)})
		}
	})
	return m, err
}

func decodeBranch(line []byte) (*session.Parent, error) {
	p := &session.Parent{Raw: line}
	err := jsonx.Members(line, func(k string, v []byte) {
		r := gjson.ParseBytes(v)
		switch {
		case k == "type":
		case k == "id" && r.Type == gjson.String:
			p.ID = r.String()
		case k == "timestamp" && r.Type == gjson.String:
			p.Time = entryTime(r.String())
		case k == "parent_session_path" && r.Type == gjson.String:
			p.Path = r.String()
		case k == "fork_entry_id" && r.Type == gjson.String:
			p.EntryID = r.String()
		case k == "branch_summary" && r.Type == gjson.String && r.String() != "":
			p.Summary = r.String()
		default:
			p.Extra = append(p.Extra, session.Field{Key: k, Value: json.RawMessage(v)})
		}
	})
	return p, err
}

// decodeEntry maps a message, compaction or unknown line onto an Entry.
func decodeEntry(line []byte, n int) (*session.Entry, error) {
	v := gjson.ParseBytes(line)
	e := &session.Entry{Type: v.Get("type").String(), Source: session.Source{Origin: Name, Raw: line, Line: n}}
	switch e.Type {
	case "message":
		e.Kind = session.KindMessage
	case "compaction":
		e.Kind = session.KindCompaction
		e.Compaction = &session.Compaction{}
	default:
		// Unknown types (and a branch line that is not line 2) have no
		// slot in the model: the whole body is kept and only flat writes it.
		e.Kind = session.KindOther
		e.ID = v.Get("id").String()
		e.ParentID = v.Get("parent_id").String()
		e.Custom = &session.Custom{CustomType: e.Type, Data: line}
		return e, nil
	}
	var err error
	merr := jsonx.Members(line, func(k string, val []byte) {
		if err != nil {
			return
		}
		r := gjson.ParseBytes(val)
		switch {
		case k == "type":
		case k == "id" && r.Type == gjson.String:
			e.ID = r.String()
		case k == "parent_id" && r.Type == gjson.String:
			e.ParentID = r.String()
		case k == "timestamp" && r.Type == gjson.String:
			e.Time = entryTime(r.String())
		case e.Kind == session.KindMessage && k == "role" && r.Type == gjson.String && r.String() == v.Get("message.role").String():
			// The outer role repeats message.role; the model keeps one (a
			// differing outer role is invalid and stays in Extra verbatim).
		case e.Kind == session.KindMessage && k == "message" && r.IsObject():
			e.Message, err = decodeMessage(val)
		case e.Kind == session.KindCompaction && k == "summary" && r.Type == gjson.String:
			e.Compaction.Summary = r.String()
		case e.Kind == session.KindCompaction && k == "first_kept_entry_id" && r.Type == gjson.String:
			e.Compaction.FirstKeptID = r.String()
		case e.Kind == session.KindCompaction && k == "tokens_before" && isInt(r):
			t := r.Int()
			e.Compaction.TokensBefore = &t
		default:
			e.Extra = append(e.Extra, session.Field{Key: k, Value: json.RawMessage(val)})
		}
	})
	if merr != nil {
		return nil, merr
	}
	if err != nil {
		return nil, err
	}
	if e.Kind == session.KindMessage && e.Message == nil {
		return nil, fmt.Errorf("message entry has no message object")
	}
	return e, nil
}

var roles = map[string]session.Role{"user": session.RoleUser, "assistant": session.RoleAssistant, "tool_result": session.RoleTool}

func decodeMessage(obj []byte) (*session.Message, error) {
	role := gjson.GetBytes(obj, "role").String()
	m := &session.Message{Role: roles[role]}
	if m.Role == "" {
		return nil, fmt.Errorf("unknown message role %q", role)
	}
	if m.Role == session.RoleTool {
		m.SourceRole = role
	}
	var err error
	merr := jsonx.Members(obj, func(k string, val []byte) {
		if err != nil {
			return
		}
		r := gjson.ParseBytes(val)
		assistant, tool := m.Role == session.RoleAssistant, m.Role == session.RoleTool
		switch {
		case k == "role":
		case k == "content" && r.Type == gjson.Null:
			m.ContentIsNull = true
		case k == "content" && r.IsArray():
			m.Content, err = decodeBlocks(val)
		case k == "timestamp" && isInt(r):
			m.Time = millisTime(r)
		case assistant && k == "model" && r.Type == gjson.String:
			m.Model = r.String()
		case assistant && k == "provider" && r.Type == gjson.String:
			m.Provider = r.String()
		case assistant && k == "usage" && r.IsObject():
			m.Usage = decodeUsage(val)
		case assistant && k == "stop_reason" && r.Type == gjson.String:
			m.StopReason = r.String()
		case assistant && k == "error_message" && r.Type == gjson.String && r.String() != "":
			m.Error = r.String()
		case tool && k == "tool_call_id" && r.Type == gjson.String:
			m.ToolCallID = r.String()
		case tool && k == "tool_name" && r.Type == gjson.String:
			m.ToolName = r.String()
		case tool && k == "is_error" && (r.Type == gjson.True || r.Type == gjson.False):
			m.IsError = r.Bool()
		default:
			m.Extra = append(m.Extra, session.Field{Key: k, Value: json.RawMessage(val)})
		}
	})
	if merr != nil {
		return nil, merr
	}
	if m.Content == nil && !m.ContentIsNull {
		m.Content = []session.Block{} // "content":[] stays an empty array
	}
	return m, err
}

func decodeBlocks(arr []byte) ([]session.Block, error) {
	out := []session.Block{}
	var err error
	jerr := jsonx.Elements(arr, func(_ int, val []byte) {
		if err != nil {
			return
		}
		var b session.Block
		b, err = decodeBlock(val)
		out = append(out, b)
	})
	if jerr != nil {
		return nil, jerr
	}
	return out, err
}

func decodeBlock(obj []byte) (session.Block, error) {
	typ := gjson.GetBytes(obj, "type")
	if typ.Type != gjson.String {
		return session.Block{}, fmt.Errorf("content block without a type")
	}
	b := session.Block{Type: session.BlockType(typ.String())}
	err := jsonx.Members(obj, func(k string, val []byte) {
		r := gjson.ParseBytes(val)
		str := r.Type == gjson.String && r.String() != "" // every payload field is omitempty
		switch {
		case k == "type":
		case b.Type == session.BlockText && k == "text" && str:
			b.Text = r.String()
		case b.Type == session.BlockThinking && k == "thinking" && str:
			b.Text = r.String()
		case b.Type == session.BlockImage && k == "data" && str:
			b.Data = r.String()
		case b.Type == session.BlockImage && k == "mime_type" && str:
			b.MimeType = r.String()
		case b.Type == session.BlockToolCall && k == "id" && str:
			b.ToolCallID = r.String()
		case b.Type == session.BlockToolCall && k == "name" && str:
			b.ToolName = r.String()
		case b.Type == session.BlockToolCall && k == "arguments" && r.IsObject() && len(r.Map()) > 0:
			b.Arguments = json.RawMessage(val)
		default:
			b.Extra = append(b.Extra, session.Field{Key: k, Value: json.RawMessage(val)})
		}
	})
	return b, err
}

func decodeUsage(obj []byte) *session.Usage {
	u := &session.Usage{}
	_ = jsonx.Members(obj, func(k string, val []byte) {
		r := gjson.ParseBytes(val)
		n := isInt(r)
		switch {
		case k == "input" && n:
			u.Input = r.Int()
		case k == "output" && n:
			u.Output = r.Int()
		case k == "cache_read" && n:
			u.CacheRead = r.Int()
		case k == "cache_write" && n:
			u.CacheWrite = r.Int()
		case k == "total_tokens" && n:
			t := r.Int()
			u.Total = &t
		case k == "cost" && r.IsObject():
			u.Cost = decodeCost(val)
		default:
			u.Extra = append(u.Extra, session.Field{Key: k, Value: json.RawMessage(val)})
		}
	})
	return u
}

func decodeCost(obj []byte) *session.Cost {
	c := &session.Cost{}
	_ = jsonx.Members(obj, func(k string, val []byte) {
		r := gjson.ParseBytes(val)
		n := r.Type == gjson.Number
		switch {
		case k == "input" && n:
			c.Input = r.Float()
		case k == "output" && n:
			c.Output = r.Float()
		case k == "cache_read" && n:
			c.CacheRead = r.Float()
		case k == "cache_write" && n:
			c.CacheWrite = r.Float()
		case k == "total" && n:
			c.Total = r.Float()
		default:
			c.Extra = append(c.Extra, session.Field{Key: k, Value: json.RawMessage(val)})
		}
	})
	return c
}

// isInt reports whether r is a JSON number spelled as an int64 (the agent's
// int fields), so other spellings stay in Extras verbatim.
func isInt(r gjson.Result) bool {
	if r.Type != gjson.Number {
		return false
	}
	_, err := strconv.ParseInt(r.Raw, 10, 64)
	return err == nil
}

func entryTime(s string) session.Time {
	t, _ := session.ParseTime(s)
	return t
}

func millisTime(r gjson.Result) session.Time {
	ms, _ := strconv.ParseInt(r.Raw, 10, 64)
	return session.Time{T: time.UnixMilli(ms).UTC(), Raw: r.Raw}
}
