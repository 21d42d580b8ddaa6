package tree

import (
	"strconv"
	"strings"
	"time"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// obj builds one object from model slots and then the Extras. A slot whose
// key is also in Extras is skipped: Extras hold the source's own value for a
// key whenever the model could not (an empty string, a false flag, a value of
// an unexpected type), so they win.
type obj struct {
	o     jsonx.Obj
	extra session.Extras
}

func newObj(x session.Extras) *obj { return &obj{extra: x} }

func (b *obj) has(k string) bool { return b.extra.Get(k) != nil }

func (b *obj) str(k, v string) {
	if !b.has(k) {
		b.o.Str(k, v)
	}
}

// opt writes a string only when set.
func (b *obj) opt(k, v string) {
	if v != "" {
		b.str(k, v)
	}
}

func (b *obj) int(k string, v int64) {
	if !b.has(k) {
		b.o.Int(k, v)
	}
}

func (b *obj) float(k string, v float64) {
	if !b.has(k) {
		b.o.Float(k, v)
	}
}

func (b *obj) bool(k string, v bool) {
	if !b.has(k) {
		b.o.Bool(k, v)
	}
}

func (b *obj) raw(k string, v []byte) {
	if v != nil && !b.has(k) {
		b.o.Raw(k, v)
	}
}

func (b *obj) null(k string) {
	if !b.has(k) {
		b.o.Null(k)
	}
}

func (b *obj) bytes() []byte {
	for _, f := range b.extra {
		b.o.Raw(f.Key, f.Value)
	}
	return b.o.Bytes()
}

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

// msTime spells a message time in Unix milliseconds.
func msTime(t session.Time) (string, bool) {
	if t.Raw != "" {
		if _, err := strconv.ParseInt(t.Raw, 10, 64); err == nil {
			return t.Raw, true
		}
	}
	if t.T.IsZero() {
		return "", false
	}
	return strconv.FormatInt(t.T.UnixMilli(), 10), true
}

// encodeHeader spells the session header. A v1 header has no version.
func encodeHeader(m *session.Meta, version string) []byte {
	b := newObj(m.Extra)
	b.str("type", "session")
	if version != "1" {
		if n, err := strconv.Atoi(version); err == nil {
			b.int("version", int64(n))
		}
	}
	b.str("id", m.ID)
	if m.Created.IsZero() {
		b.str("timestamp", time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
	} else {
		b.str("timestamp", isoTime(m.Created))
	}
	b.str("cwd", m.Cwd)
	if m.Parent != nil && m.Parent.Path != "" {
		if bf, ok := str(m.Extra.Get("branchedFrom")); !ok || bf != m.Parent.Path {
			b.str("parentSession", m.Parent.Path)
		}
	}
	b.opt("title", m.Title)
	b.opt("provider", m.Provider)
	b.opt("modelId", m.Model)
	b.opt("thinkingLevel", m.ThinkingLevel)
	return b.bytes()
}

// encoder spells entries of one file; firstKept maps ids to v1 line indexes
// for v1's firstKeptEntryIndex.
type encoder struct {
	version string
	index   map[string]int // v1: entry id -> index counting the header as 0
	n       int
	foreign bool // the session did not come from this format
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
	b := newObj(x)
	if t := entryType(e); t != "" {
		b.str("type", t)
	}
	if !c.v1() {
		b.str("id", e.ID)
		if e.ParentID == "" {
			b.null("parentId")
		} else {
			b.str("parentId", e.ParentID)
		}
	}
	if !e.Time.IsZero() {
		b.str("timestamp", isoTime(e.Time))
	} else if c.foreign {
		b.str("timestamp", isoTime(session.Time{T: time.Unix(0, 0)}))
	}
	c.body(b, e)
	return b.bytes()
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

func (c *encoder) body(b *obj, e *session.Entry) {
	switch e.Kind {
	case session.KindMessage:
		if e.Message != nil {
			b.raw("message", c.message(e.Message, e.Time))
		}
	case session.KindCustomMessage:
		if m := e.Message; m != nil {
			b.opt("customType", m.CustomType)
			c.content(b, m, true)
			if m.Display != nil {
				b.bool("display", *m.Display)
			} else if c.foreign {
				b.bool("display", true)
			}
			b.raw("details", m.Details)
		}
	case session.KindCompaction:
		if cp := e.Compaction; cp != nil {
			b.str("summary", cp.Summary)
			if cp.FirstKeptID != "" {
				if c.v1() {
					if i, ok := c.index[cp.FirstKeptID]; ok {
						b.int("firstKeptEntryIndex", int64(i))
					}
				} else {
					b.str("firstKeptEntryId", cp.FirstKeptID)
				}
			}
			if cp.TokensBefore != nil {
				b.int("tokensBefore", *cp.TokensBefore)
			} else if c.foreign {
				b.int("tokensBefore", 0)
			}
			if cp.TokensAfter != nil {
				b.int("tokensAfter", *cp.TokensAfter)
			}
			b.raw("details", cp.Details)
			if cp.FromHook != nil {
				b.bool("fromHook", *cp.FromHook)
			}
		}
	case session.KindBranchSummary:
		if bs := e.BranchSummary; bs != nil {
			b.str("fromId", orRoot(bs.FromID))
			b.str("summary", bs.Summary)
			b.raw("details", bs.Details)
			if bs.FromHook != nil {
				b.bool("fromHook", *bs.FromHook)
			}
		}
	case session.KindLabel:
		if l := e.Label; l != nil {
			b.str("targetId", l.TargetID)
			b.opt("label", l.Label)
		}
	case session.KindModelChange:
		if mc := e.ModelChange; mc != nil {
			if mc.Combined {
				b.str("model", mc.Provider+"/"+mc.ModelID)
			} else {
				b.str("provider", mc.Provider)
				b.str("modelId", mc.ModelID)
			}
			b.opt("role", mc.Role)
		}
	case session.KindThinkingLevel:
		if e.ThinkingLevel != nil {
			b.str("thinkingLevel", *e.ThinkingLevel)
		} else if c.foreign {
			b.null("thinkingLevel")
		}
	case session.KindSessionInfo:
		b.opt("name", e.Title)
	case session.KindCustom, session.KindSubagent, session.KindSubagentEnd:
		if cu := e.Custom; cu != nil {
			b.str("customType", cu.CustomType)
			b.raw("data", cu.Data)
		} else if c.foreign {
			b.str("customType", string(e.Kind))
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
	b := newObj(c.own(m.Extra))
	role := roleName(m)
	b.str("role", role)
	c.content(b, m, contentRoles[role])
	if m.Role == session.RoleBash || m.Role == session.RolePython {
		c.exec(b, m)
	}
	if m.Role == session.RoleTool {
		b.str("toolCallId", m.ToolCallID)
		b.str("toolName", m.ToolName)
	} else {
		b.opt("toolCallId", m.ToolCallID)
		b.opt("toolName", m.ToolName)
	}
	b.opt("customType", m.CustomType)
	if m.Display != nil {
		b.bool("display", *m.Display)
	}
	b.raw("details", m.Details)
	if m.Role == session.RoleTool || m.IsError {
		b.bool("isError", m.IsError)
	}
	b.opt("api", m.API)
	b.opt("provider", m.Provider)
	b.opt("model", m.Model)
	if m.Usage != nil {
		b.raw("usage", c.usage(m.Usage))
	}
	b.opt("stopReason", m.StopReason)
	b.opt("errorMessage", m.Error)
	if ms, ok := msTime(m.Time); ok {
		b.raw("timestamp", []byte(ms))
	} else if c.foreign {
		if ms, ok := msTime(session.Time{T: entryTime.T}); ok {
			b.raw("timestamp", []byte(ms))
		}
	}
	return b.bytes()
}

func (c *encoder) exec(b *obj, m *session.Message) {
	x := m.Exec
	if x == nil {
		x = &session.Exec{}
	}
	if m.Role == session.RolePython {
		b.str("code", x.Command)
	} else {
		b.str("command", x.Command)
	}
	b.str("output", x.Output)
	if x.ExitCode != nil {
		b.int("exitCode", *x.ExitCode)
	}
	b.bool("cancelled", x.Cancelled)
	b.bool("truncated", x.Truncated)
	b.opt("fullOutputPath", x.FullOutputPath)
}

func (c *encoder) content(b *obj, m *session.Message, required bool) {
	switch {
	case m.ContentIsString && len(m.Content) == 1:
		b.str("content", m.Content[0].Text)
	case m.ContentIsNull:
		b.null("content")
	case m.Content != nil || (required && c.foreign):
		els := make([][]byte, 0, len(m.Content))
		for i := range m.Content {
			els = append(els, c.block(&m.Content[i]))
		}
		b.raw("content", jsonx.Arr(els))
	}
}

func (c *encoder) block(blk *session.Block) []byte {
	b := newObj(c.own(blk.Extra))
	switch blk.Type {
	case session.BlockText:
		b.str("type", "text")
		b.str("text", blk.Text)
		b.opt("textSignature", blk.Signature)
	case session.BlockThinking:
		b.str("type", "thinking")
		b.str("thinking", blk.Text)
		b.opt("thinkingSignature", blk.Signature)
		if blk.Redacted {
			b.bool("redacted", true)
		}
	case session.BlockImage, session.BlockFile:
		b.str("type", "image")
		b.str("data", blk.Data)
		b.opt("mimeType", blk.MimeType)
	case session.BlockToolCall:
		b.str("type", "toolCall")
		b.str("id", blk.ToolCallID)
		b.str("name", blk.ToolName)
		args := blk.Arguments
		if args == nil {
			args = []byte("{}")
		}
		b.raw("arguments", args)
		b.opt("thoughtSignature", blk.Signature)
	case session.BlockToolResult:
		b.str("type", "text")
		b.str("text", blk.Text)
	case "":
	default:
		b.str("type", string(blk.Type))
	}
	return b.bytes()
}

func (c *encoder) usage(u *session.Usage) []byte {
	b := newObj(c.own(u.Extra))
	b.int("input", u.Input)
	b.int("output", u.Output)
	b.int("cacheRead", u.CacheRead)
	b.int("cacheWrite", u.CacheWrite)
	if u.Total != nil {
		b.int("totalTokens", *u.Total)
	}
	if u.Cost != nil {
		cb := newObj(c.own(u.Cost.Extra))
		cb.float("input", u.Cost.Input)
		cb.float("output", u.Cost.Output)
		cb.float("cacheRead", u.Cost.CacheRead)
		cb.float("cacheWrite", u.Cost.CacheWrite)
		cb.float("total", u.Cost.Total)
		b.raw("cost", cb.bytes())
	}
	return b.bytes()
}

// splitModel is used for foreign model strings of the form provider/model.
func splitModel(s string) (string, string) {
	if i := strings.IndexByte(s, '/'); i > 0 {
		return s[:i], s[i+1:]
	}
	return "", s
}
