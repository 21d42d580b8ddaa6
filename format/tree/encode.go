package tree

import (
	"strconv"
	"time"

	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// isoTime spells an entry or header time: the source spelling when there is
// one that pi reads (RFC 3339; another layout may spell times otherwise,
// such as ash's Python "+0000"), else JavaScript's toISOString form.
func isoTime(t session.Time) string {
	if t.Raw != "" {
		if _, err := time.Parse(time.RFC3339Nano, t.Raw); err == nil {
			return t.Raw
		}
	}
	return t.T.UTC().Format("2006-01-02T15:04:05.000Z")
}

// msTime spells a message time in Unix milliseconds, and false for none:
// unset, or before 1970, which pi's message time cannot be (defs.json's
// msTime).
func msTime(t session.Time) (string, bool) {
	if t.Raw != "" {
		if n, err := strconv.ParseInt(t.Raw, 10, 64); err == nil {
			return t.Raw, n >= 0
		}
	}
	if t.T.IsZero() || t.T.UnixMilli() < 0 {
		return "", false
	}
	return strconv.FormatInt(t.T.UnixMilli(), 10), true
}

// encodeHeader spells the session header. A v1 header has no version.
func encodeHeader(m *session.Meta, version string) []byte {
	b := session.NewObj(m.Extra)
	b.Str("type", "session")
	if version != "1" {
		if n, err := strconv.Atoi(version); err == nil {
			b.Int("version", int64(n))
		}
	}
	b.Str("id", m.ID)
	if m.Created.IsZero() {
		b.Str("timestamp", time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
	} else {
		b.Str("timestamp", isoTime(m.Created))
	}
	b.Str("cwd", m.Cwd)
	if m.Parent != nil && m.Parent.Path != "" {
		if bf, ok := str(m.Extra.Get("branchedFrom")); !ok || bf != m.Parent.Path {
			b.Str("parentSession", m.Parent.Path)
		}
	}
	b.OptStr("title", m.Title)
	b.OptStr("provider", m.Provider)
	b.OptStr("modelId", m.Model)
	b.OptStr("thinkingLevel", m.ThinkingLevel)
	return b.Bytes()
}

// encoder spells entries of one file; firstKept maps ids to v1 line indexes
// for v1's firstKeptEntryIndex.
type encoder struct {
	version string
	index   map[string]int // v1: entry id -> index counting the header as 0
	n       int
	foreign bool         // the session did not come from this format
	clock   spell.Clock  // a foreign entry's time when it has none (an ash tool result)
	now     session.Time // the time of the entry being encoded
}

func (c *encoder) v1() bool { return c.version == "1" }

// own returns Extras only for entries read from this format: another
// format's unknown members mean nothing here (they are counted as lost).
func (c *encoder) own(x session.Extras) session.Extras {
	if c.foreign {
		return nil
	}
	return x
}

func (c *encoder) entry(e *session.Entry) []byte {
	c.n++
	if c.v1() {
		if c.index == nil {
			c.index = map[string]int{}
		}
		c.index[e.ID] = c.n
	}
	var x session.Extras
	if e.Kind == session.KindOther && e.Custom != nil {
		x = bodyExtras(e.Custom.Data, c.own(e.Extra))
	} else {
		x = c.own(e.Extra)
	}
	b := session.NewObj(x)
	if t := entryType(e); t != "" {
		b.Str("type", t)
	}
	if !c.v1() {
		b.Str("id", e.ID)
		if e.ParentID == "" {
			b.Null("parentId")
		} else {
			b.Str("parentId", e.ParentID)
		}
	}
	c.now = e.Time
	if c.foreign {
		c.now = c.clock.Entry(e)
	}
	if !c.now.IsZero() {
		b.Str("timestamp", isoTime(c.now))
	} else if c.foreign {
		b.Str("timestamp", isoTime(session.Time{T: time.Unix(0, 0)}))
	}
	c.body(b, e)
	return b.Bytes()
}

func entryType(e *session.Entry) string {
	if e.Type != "" && (e.Kind == session.KindOther || kindOf(e.Type) == e.Kind) {
		return e.Type
	}
	if e.Kind == session.KindSubagent || e.Kind == session.KindSubagentEnd {
		return "custom"
	}
	if e.Kind == session.KindOther {
		return "" // read without a type; a foreign reader always names one
	}
	return string(e.Kind)
}

// bodyExtras spreads an unmodelled entry's body back to top-level members.
func bodyExtras(data []byte, extra session.Extras) session.Extras {
	var x session.Extras
	if len(data) > 0 {
		_ = jsonx.Members(data, func(k string, v []byte) { keep(&x, k, v) })
	}
	return append(x, extra...)
}

func (c *encoder) body(b *session.Obj, e *session.Entry) {
	switch e.Kind {
	case session.KindMessage:
		if e.Message != nil {
			b.OptRaw("message", c.message(e.Message, c.now))
		}
	case session.KindCustomMessage:
		if m := e.Message; m != nil {
			b.OptStr("customType", m.CustomType)
			c.content(b, m, true)
			if m.Display != nil {
				b.Bool("display", *m.Display)
			} else if c.foreign {
				b.Bool("display", true)
			}
			b.OptRaw("details", m.Details)
		}
	case session.KindCompaction:
		if cp := e.Compaction; cp != nil {
			b.Str("summary", cp.Summary)
			if cp.FirstKeptID != "" {
				if c.v1() {
					if i, ok := c.index[cp.FirstKeptID]; ok {
						b.Int("firstKeptEntryIndex", int64(i))
					}
				} else {
					b.Str("firstKeptEntryId", cp.FirstKeptID)
				}
			}
			if cp.TokensBefore != nil {
				b.Int("tokensBefore", *cp.TokensBefore)
			} else if c.foreign {
				b.Int("tokensBefore", 0)
			}
			if cp.TokensAfter != nil {
				b.Int("tokensAfter", *cp.TokensAfter)
			}
			b.OptRaw("details", cp.Details)
			if cp.FromHook != nil {
				b.Bool("fromHook", *cp.FromHook)
			}
		}
	case session.KindBranchSummary:
		if bs := e.BranchSummary; bs != nil {
			b.Str("fromId", orRoot(bs.FromID))
			b.Str("summary", bs.Summary)
			b.OptRaw("details", bs.Details)
			if bs.FromHook != nil {
				b.Bool("fromHook", *bs.FromHook)
			}
		}
	case session.KindLabel:
		if l := e.Label; l != nil {
			b.Str("targetId", l.TargetID)
			b.OptStr("label", l.Label)
		}
	case session.KindModelChange:
		if mc := e.ModelChange; mc != nil {
			if mc.Combined {
				b.Str("model", mc.Provider+"/"+mc.ModelID)
			} else {
				b.Str("provider", mc.Provider)
				b.Str("modelId", mc.ModelID)
			}
			b.OptStr("role", mc.Role)
		}
	case session.KindThinkingLevel:
		if e.ThinkingLevel != nil {
			b.Str("thinkingLevel", *e.ThinkingLevel)
		} else if c.foreign {
			b.Null("thinkingLevel")
		}
	case session.KindSessionInfo:
		b.OptStr("name", e.Title)
	case session.KindCustom, session.KindSubagent, session.KindSubagentEnd:
		if cu := e.Custom; cu != nil {
			b.Str("customType", cu.CustomType)
			b.OptRaw("data", cu.Data)
		} else if c.foreign {
			b.Str("customType", string(e.Kind))
		}
	}
}

func orRoot(id string) string {
	if id == "" {
		return "root"
	}
	return id
}

// contentRoles must carry content in pi even when a foreign source has none.
var contentRoles = map[string]bool{"user": true, "assistant": true, "toolResult": true, "custom": true, "developer": true}

func (c *encoder) message(m *session.Message, entryTime session.Time) []byte {
	b := session.NewObj(c.own(m.Extra))
	role := roleName(m)
	b.Str("role", role)
	c.content(b, m, contentRoles[role])
	if m.Role == session.RoleBash || m.Role == session.RolePython {
		c.exec(b, m)
	}
	if m.Role == session.RoleTool {
		b.Str("toolCallId", m.ToolCallID)
		b.Str("toolName", m.ToolName)
	} else {
		b.OptStr("toolCallId", m.ToolCallID)
		b.OptStr("toolName", m.ToolName)
	}
	b.OptStr("customType", m.CustomType)
	if m.Display != nil {
		b.Bool("display", *m.Display)
	}
	b.OptRaw("details", m.Details)
	if m.Role == session.RoleTool || m.IsError {
		b.Bool("isError", m.IsError)
	}
	b.OptStr("api", m.API)
	b.OptStr("provider", m.Provider)
	b.OptStr("model", m.Model)
	if m.Usage != nil {
		b.OptRaw("usage", c.usage(m.Usage))
	}
	b.OptStr("stopReason", m.StopReason)
	b.OptStr("errorMessage", m.Error)
	c.messageTime(b, m.Time, entryTime)
	return b.Bytes()
}

// messageTime writes a message's time as pi does, in milliseconds after
// 1970. Another layout's message without one takes its entry's; convert
// left none before 1970 (Caps.MessageTimeAsEntry, MessageTimeLeftOut: it
// gave such a message its entry's time, or took it away when the entry's is
// before 1970 too), so the entry's is written only when it can be.
func (c *encoder) messageTime(b *session.Obj, t, entry session.Time) {
	if ms, ok := msTime(t); ok {
		b.OptRaw("timestamp", []byte(ms))
		return
	}
	if !c.foreign {
		return
	}
	if ms, ok := msTime(session.Time{T: entry.T}); ok {
		b.OptRaw("timestamp", []byte(ms))
	}
}

func (c *encoder) exec(b *session.Obj, m *session.Message) {
	x := m.Exec
	if x == nil {
		x = &session.Exec{}
	}
	if m.Role == session.RolePython {
		b.Str("code", x.Command)
	} else {
		b.Str("command", x.Command)
	}
	b.Str("output", x.Output)
	if x.ExitCode != nil {
		b.Int("exitCode", *x.ExitCode)
	}
	b.Bool("cancelled", x.Cancelled)
	b.Bool("truncated", x.Truncated)
	b.OptStr("fullOutputPath", x.FullOutputPath)
}

func (c *encoder) content(b *session.Obj, m *session.Message, required bool) {
	switch {
	case m.ContentIsString && len(m.Content) == 1:
		b.Str("content", m.Content[0].Text)
	case m.ContentIsNull:
		b.Null("content")
	case m.Content != nil || (required && c.foreign):
		els := make([][]byte, 0, len(m.Content))
		for i := range m.Content {
			els = append(els, c.block(&m.Content[i]))
		}
		b.OptRaw("content", jsonx.Arr(els))
	}
}

func (c *encoder) block(blk *session.Block) []byte {
	b := session.NewObj(c.own(blk.Extra))
	switch blk.Type {
	case session.BlockText:
		b.Str("type", "text")
		b.Str("text", blk.Text)
		b.OptStr("textSignature", blk.Signature)
	case session.BlockThinking:
		b.Str("type", "thinking")
		b.Str("thinking", blk.Text)
		b.OptStr("thinkingSignature", blk.Signature)
		if blk.Redacted {
			b.Bool("redacted", true)
		}
	case session.BlockImage, session.BlockFile:
		b.Str("type", "image")
		b.Str("data", blk.Data)
		b.OptStr("mimeType", blk.MimeType)
	case session.BlockToolCall:
		b.Str("type", "toolCall")
		b.Str("id", blk.ToolCallID)
		b.Str("name", blk.ToolName)
		args := blk.Arguments
		if args == nil {
			args = []byte("{}")
		}
		b.OptRaw("arguments", args)
		b.OptStr("thoughtSignature", blk.Signature)
	case session.BlockToolResult:
		b.Str("type", "text")
		b.Str("text", blk.Text)
	case "":
	default:
		b.Str("type", string(blk.Type))
	}
	return b.Bytes()
}

func (c *encoder) usage(u *session.Usage) []byte {
	b := session.NewObj(c.own(u.Extra))
	b.Int("input", u.Input)
	b.Int("output", u.Output)
	b.Int("cacheRead", u.CacheRead)
	b.Int("cacheWrite", u.CacheWrite)
	if u.Total != nil {
		b.Int("totalTokens", *u.Total)
	}
	if u.Cost != nil {
		cb := session.NewObj(c.own(u.Cost.Extra))
		cb.Float("input", u.Cost.Input)
		cb.Float("output", u.Cost.Output)
		cb.Float("cacheRead", u.Cost.CacheRead)
		cb.Float("cacheWrite", u.Cost.CacheWrite)
		cb.Float("total", u.Cost.Total)
		b.OptRaw("cost", cb.Bytes())
	}
	return b.Bytes()
}
