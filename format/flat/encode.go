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

// obj writes members in order and then the Extras; a known member whose key
// is also in Extras (a value of the wrong JSON type, kept verbatim) is left
// to the Extras so no key is written twice.
type obj struct {
	o     jsonx.Obj
	extra session.Extras
}

func (b *obj) skip(k string) bool { return b.extra.Get(k) != nil }

func (b *obj) str(k, v string) {
	if !b.skip(k) {
		b.o.Str(k, v)
	}
}

func (b *obj) int(k string, v int64) {
	if !b.skip(k) {
		b.o.Int(k, v)
	}
}

func (b *obj) float(k string, v float64) {
	if !b.skip(k) {
		b.o.Float(k, v)
	}
}

func (b *obj) bool(k string, v bool) {
	if !b.skip(k) {
		b.o.Bool(k, v)
	}
}

func (b *obj) raw(k string, v []byte) {
	if !b.skip(k) {
		b.o.Raw(k, v)
	}
}

func (b *obj) bytes() []byte {
	for _, f := range b.extra {
		b.o.Raw(f.Key, f.Value)
	}
	return b.o.Bytes()
}

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
	b := obj{extra: extras(m.Extra, native)}
	b.str("type", "session")
	b.str("id", m.ID)
	b.raw("version", []byte(version))
	b.str("timestamp", entryStamp(created, native))
	b.str("cwd", m.Cwd)
	return b.bytes()
}

func encodeBranch(p *session.Parent, native bool) []byte {
	b := obj{extra: extras(p.Extra, native)}
	b.str("type", "branch")
	b.str("id", p.ID)
	b.str("timestamp", entryStamp(p.Time, native))
	b.str("parent_session_path", p.Path)
	b.str("fork_entry_id", p.EntryID)
	if p.Summary != "" {
		b.str("branch_summary", p.Summary)
	}
	return b.bytes()
}

// wireRole is the flat spelling of a message role.
func wireRole(r session.Role) string {
	if r == session.RoleTool {
		return "tool_result"
	}
	return string(r)
}

func encodeMessageEntry(e *session.Entry, id, parent string, when session.Time, native bool) []byte {
	b := obj{extra: extras(e.Extra, native)}
	b.str("type", "message")
	b.str("id", id)
	b.str("parent_id", parent)
	b.str("timestamp", entryStamp(when, native))
	b.str("role", wireRole(e.Message.Role))
	b.raw("message", encodeMessage(e.Message, when, native))
	return b.bytes()
}

func encodeCompaction(e *session.Entry, id, parent, firstKept string, when session.Time, native bool) []byte {
	c := e.Compaction
	b := obj{extra: extras(e.Extra, native)}
	b.str("type", "compaction")
	b.str("id", id)
	b.str("parent_id", parent)
	b.str("timestamp", entryStamp(when, native))
	b.str("summary", c.Summary)
	b.str("first_kept_entry_id", firstKept)
	var tokens int64
	if c.TokensBefore != nil {
		tokens = *c.TokensBefore
	}
	b.int("tokens_before", tokens)
	return b.bytes()
}

func encodeMessage(m *session.Message, entryTime session.Time, native bool) []byte {
	b := obj{extra: extras(m.Extra, native)}
	b.str("role", wireRole(m.Role))
	content := func() {
		if m.ContentIsNull {
			b.raw("content", []byte("null"))
		} else {
			b.raw("content", encodeBlocks(m.Content, native))
		}
	}
	switch m.Role {
	case session.RoleAssistant:
		content()
		b.str("model", m.Model)
		b.str("provider", m.Provider)
		if m.Usage != nil || !native {
			b.raw("usage", encodeUsage(m.Usage, native))
		}
		b.str("stop_reason", m.StopReason)
		if m.Error != "" {
			b.str("error_message", m.Error)
		}
	case session.RoleTool:
		b.str("tool_call_id", m.ToolCallID)
		b.str("tool_name", m.ToolName)
		content()
		b.bool("is_error", m.IsError)
	default:
		content()
	}
	t := m.Time
	if t.IsZero() {
		t = session.Time{T: entryTime.T}
	}
	b.raw("timestamp", millisStamp(t, native))
	return b.bytes()
}

func encodeBlocks(blocks []session.Block, native bool) []byte {
	elems := make([][]byte, 0, len(blocks))
	for i := range blocks {
		elems = append(elems, encodeBlock(&blocks[i], native))
	}
	return jsonx.Arr(elems)
}

// encodeBlock writes one block; every payload field is omitempty upstream.
func encodeBlock(bl *session.Block, native bool) []byte {
	b := obj{extra: extras(bl.Extra, native)}
	b.str("type", string(bl.Type))
	opt := func(k, v string) {
		if v != "" {
			b.str(k, v)
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
			b.raw("arguments", compact(bl.Arguments))
		}
	}
	return b.bytes()
}

func encodeUsage(u *session.Usage, native bool) []byte {
	if u == nil {
		u = &session.Usage{}
	}
	b := obj{extra: extras(u.Extra, native)}
	b.int("input", u.Input)
	b.int("output", u.Output)
	b.int("cache_read", u.CacheRead)
	b.int("cache_write", u.CacheWrite)
	b.int("total_tokens", u.TotalTokens())
	if c := u.Cost; c != nil {
		cb := obj{extra: extras(c.Extra, native)}
		cb.float("input", c.Input)
		cb.float("output", c.Output)
		cb.float("cache_read", c.CacheRead)
		cb.float("cache_write", c.CacheWrite)
		cb.float("total", c.Total)
		b.raw("cost", cb.bytes())
	}
	return b.bytes()
}

// compact returns raw JSON without insignificant whitespace, as one JSONL
// line needs (json.Compact keeps string escapes as they are); invalid JSON
// becomes an empty object rather than a broken line.
func compact(raw json.RawMessage) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return []byte("{}")
	}
	return buf.Bytes()
}
