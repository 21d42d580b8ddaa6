package flat

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// Encoding writes the canonical form of each line from the model, members in
// the order of the agent's Go structs. native says the value was read from a
// flat file, so its Extras and time spellings belong to this layout.

// entryStamp spells an entry time as the agent does: RFC 3339, UTC, seconds.
func entryStamp(t session.Time, native bool) string {
	if native && t.Raw != "" {
		return t.Raw
	}
	if t.T.IsZero() {
		return t.Raw
	}
	return t.T.UTC().Format(time.RFC3339)
}

// millisStamp spells a message time as Unix milliseconds.
func millisStamp(t session.Time, native bool) []byte {
	if native && t.Raw != "" {
		if _, err := strconv.ParseInt(t.Raw, 10, 64); err == nil {
			return []byte(t.Raw)
		}
	}
	return strconv.AppendInt(nil, t.UnixMilli(), 10)
}

func extras(x session.Extras, native bool) session.Extras {
	if native {
		return x
	}
	return nil
}

func encodeHeader(m *session.Meta, version string, created session.Time, native bool) []byte {
	b := session.NewObj(extras(m.Extra, native))
	b.Str("type", "session")
	b.Str("id", m.ID)
	b.Raw("version", []byte(version))
	b.Str("timestamp", entryStamp(created, native))
	b.Str("cwd", m.Cwd)
	return b.Bytes()
}

func encodeBranch(p *session.Parent, native bool) []byte {
	b := session.NewObj(extras(p.Extra, native))
	b.Str("type", "branch")
	b.Str("id", p.ID)
	b.Str("timestamp", entryStamp(p.Time, native))
	b.Str("parent_session_path", p.Path)
	b.Str("fork_entry_id", p.EntryID)
	if p.Summary != "" {
		b.Str("branch_summary", p.Summary)
	}
	return b.Bytes()
}

// wireRole is the flat spelling of a message role.
func wireRole(r session.Role) string {
	if r == session.RoleTool {
		return "tool_result"
	}
	return string(r)
}

// appendMessageEntry appends the line to dst, its message and content
// encoded in place: a writer that reuses dst copies each line's text once.
func appendMessageEntry(dst []byte, e *session.Entry, id, parent string, when session.Time, native bool) []byte {
	b := session.ObjAt(dst, extras(e.Extra, native))
	b.Str("type", "message")
	b.Str("id", id)
	b.Str("parent_id", parent)
	b.Str("timestamp", entryStamp(when, native))
	b.Str("role", wireRole(e.Message.Role))
	b.Append("message", func(dst []byte) []byte { return appendMessage(dst, e.Message, when, native) })
	return b.Bytes()
}

func encodeCompaction(e *session.Entry, id, parent, firstKept string, when session.Time, native bool) []byte {
	c := e.Compaction
	b := session.NewObj(extras(e.Extra, native))
	b.Str("type", "compaction")
	b.Str("id", id)
	b.Str("parent_id", parent)
	b.Str("timestamp", entryStamp(when, native))
	b.Str("summary", c.Summary)
	b.Str("first_kept_entry_id", firstKept)
	var tokens int64
	if c.TokensBefore != nil {
		tokens = *c.TokensBefore
	}
	b.Int("tokens_before", tokens)
	return b.Bytes()
}

func appendMessage(dst []byte, m *session.Message, entryTime session.Time, native bool) []byte {
	b := session.ObjAt(dst, extras(m.Extra, native))
	b.Str("role", wireRole(m.Role))
	content := func() {
		b.Append("content", func(dst []byte) []byte {
			if m.ContentIsNull {
				return append(dst, "null"...)
			}
			return appendBlocks(dst, m.Content, native)
		})
	}
	switch m.Role {
	case session.RoleAssistant:
		content()
		b.Str("model", m.Model)
		b.Str("provider", m.Provider)
		if m.Usage != nil || !native {
			b.Raw("usage", encodeUsage(m.Usage, native))
		}
		b.Str("stop_reason", m.StopReason)
		if m.Error != "" {
			b.Str("error_message", m.Error)
		}
	case session.RoleTool:
		b.Str("tool_call_id", m.ToolCallID)
		b.Str("tool_name", m.ToolName)
		content()
		b.Bool("is_error", m.IsError)
	default:
		content()
	}
	t := m.Time
	if t.IsZero() {
		t = session.Time{T: entryTime.T}
	}
	b.Raw("timestamp", millisStamp(t, native))
	return b.Bytes()
}

func appendBlocks(dst []byte, blocks []session.Block, native bool) []byte {
	dst = append(dst, '[')
	for i := range blocks {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendBlock(dst, &blocks[i], native)
	}
	return append(dst, ']')
}

// appendBlock writes one block; every payload field is omitempty upstream.
func appendBlock(dst []byte, bl *session.Block, native bool) []byte {
	b := session.ObjAt(dst, extras(bl.Extra, native))
	b.Str("type", string(bl.Type))
	opt := func(k, v string) {
		if v != "" {
			b.Str(k, v)
		}
	}
	switch bl.Type {
	case session.BlockText:
		opt("text", bl.Text)
	case session.BlockThinking:
		opt("thinking", bl.Text)
	case session.BlockImage:
		opt("data", bl.Data)
		opt("mime_type", bl.MimeType)
	case session.BlockToolCall:
		opt("id", bl.ToolCallID)
		opt("name", bl.ToolName)
		if len(bl.Arguments) > 0 && string(bl.Arguments) != "null" {
			b.Raw("arguments", compact(bl.Arguments))
		}
	}
	return b.Bytes()
}

func encodeUsage(u *session.Usage, native bool) []byte {
	if u == nil {
		u = &session.Usage{}
	}
	b := session.NewObj(extras(u.Extra, native))
	b.Int("input", u.Input)
	b.Int("output", u.Output)
	b.Int("cache_read", u.CacheRead)
	b.Int("cache_write", u.CacheWrite)
	b.Int("total_tokens", u.TotalTokens())
	if c := u.Cost; c != nil {
		cb := session.NewObj(extras(c.Extra, native))
		cb.Float("input", c.Input)
		cb.Float("output", c.Output)
		cb.Float("cache_read", c.CacheRead)
		cb.Float("cache_write", c.CacheWrite)
		cb.Float("total", c.Total)
		b.Raw("cost", cb.Bytes())
	}
	return b.Bytes()
}

// compact returns raw JSON without insignificant whitespace, as one JSONL
// line needs (json.Compact keeps string escapes as they are); invalid JSON
// becomes an empty object rather than a broken line.
func compact(raw json.RawMessage) []byte {
	if jsonx.Valid(raw) && !spaced(raw) {
		return raw // already compact, as agents write arguments
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return []byte("{}")
	}
	return buf.Bytes()
}

// spaced reports whether raw has whitespace outside its strings.
func spaced(raw []byte) bool {
	in, esc := false, false
	for _, c := range raw {
		switch {
		case esc:
			esc = false
		case in:
			esc = c == '\\'
			in = c != '"'
		case c == '"':
			in = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return true
		}
	}
	return false
}
