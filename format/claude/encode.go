package claude

import (
	"encoding/json"
	"fmt"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// line is what the writer knows of one line besides the entry: its uuid,
// parent, time, session members and whether it is a sub-agent's.
type line struct {
	uuid, parent string // parent "" writes null
	time         string
	session      string
	cwd, version string
	sidechain    bool
	agent        string
}

// encodeMessage spells a message entry's line with the given blocks.
func encodeMessage(e *session.Entry, l line, blocks []session.Block, own bool) []byte {
	m := e.Message
	typ := "user"
	if m.Role == session.RoleAssistant {
		typ = "assistant"
	}
	var x session.Extras
	if own {
		x = e.Extra
	}
	o := session.NewObj(x)
	if l.parent == "" {
		o.Null("parentUuid")
	} else {
		o.Str("parentUuid", l.parent)
	}
	o.Bool("isSidechain", l.sidechain)
	if !own {
		o.Str("userType", "external")
	}
	o.OptStr("cwd", l.cwd)
	o.Str("sessionId", l.session)
	o.OptStr("version", l.version)
	if l.agent != "" && l.sidechain {
		o.Str("agentId", l.agent)
	}
	o.Str("type", typ)
	o.Raw("message", encodeAPIMessage(e, typ, blocks, own))
	if !own && e.Kind == session.KindCompaction {
		o.Bool("isCompactSummary", true)
	}
	o.Str("uuid", l.uuid)
	o.Str("timestamp", l.time)
	return o.Bytes()
}

func encodeAPIMessage(e *session.Entry, typ string, blocks []session.Block, own bool) []byte {
	m := e.Message
	blocks = namedCalls(e.ID, blocks)
	var x session.Extras
	if own {
		x = m.Extra
	}
	o := session.NewObj(x)
	if typ == "assistant" {
		o.OptStr("model", m.Model)
		if !own {
			o.Str("id", "msg_"+e.ID)
			o.Str("type", "message")
		}
	}
	role := typ
	if m.SourceRole != "" && own {
		role = m.SourceRole
	}
	o.Str("role", role)
	switch {
	case m.Role == session.RoleTool:
		var r *result
		if own {
			r = noteOf(e.Private).resultOf()
		}
		o.Raw("content", jsonx.Arr([][]byte{encodeToolResult(m, blocks, r, own)}))
	case m.ContentIsNull && own:
		o.Null("content")
	case m.ContentIsString && (own || typ == "user") && len(blocks) == 1 && blocks[0].Type == session.BlockText && (own || len(blocks[0].Extra) == 0):
		o.Str("content", blocks[0].Text)
	default:
		o.Raw("content", encodeBlocks(blocks, own))
	}
	if typ == "assistant" {
		if m.StopReason != "" {
			o.Str("stop_reason", m.StopReason)
		} else if !own {
			o.Null("stop_reason")
		}
		if !own {
			o.Null("stop_sequence")
		}
		if own && noteOf(e.Private).counted() {
			if u := gjson.GetBytes(e.Raw, "message.usage"); u.Exists() {
				o.Raw("usage", []byte(u.Raw))
			}
		} else if m.Usage != nil {
			var had gjson.Result // the usage as read: a count it lacked stays out
			if own {
				had = gjson.GetBytes(e.Raw, "message.usage")
			}
			o.Raw("usage", encodeUsage(m.Usage, had))
		}
	}
	return o.Bytes()
}

func encodeUsage(u *session.Usage, had gjson.Result) []byte {
	var x session.Extras
	own := had.Exists()
	if own {
		x = u.Extra
	}
	o := session.NewObj(x)
	count := func(k string, v int64) {
		if !own || v != 0 || had.Get(k).Exists() {
			o.Int(k, v)
		}
	}
	count("input_tokens", u.Input)
	count("cache_creation_input_tokens", u.CacheWrite)
	count("cache_read_input_tokens", u.CacheRead)
	count("output_tokens", u.Output)
	return o.Bytes()
}

func encodeBlock(b *session.Block, own bool) []byte {
	var x session.Extras
	if own {
		x = b.Extra
	}
	if own && len(x) == 1 && x[0].Key == "" {
		return x[0].Value // a block that was not an object, as read
	}
	o := session.NewObj(x)
	switch b.Type {
	case session.BlockText:
		o.Str("type", "text")
		o.Str("text", b.Text)
	case session.BlockThinking:
		if b.Redacted {
			o.Str("type", "redacted_thinking")
			if !own {
				o.Str("data", b.Signature)
			}
			break
		}
		o.Str("type", "thinking")
		o.Str("thinking", b.Text)
		if own && b.Signature != "" {
			o.Str("signature", b.Signature)
		}
	case session.BlockToolCall:
		o.Str("type", "tool_use")
		o.Str("id", b.ToolCallID)
		o.Str("name", b.ToolName)
		args := []byte(b.Arguments)
		if !gjson.ValidBytes(args) || !gjson.ParseBytes(args).IsObject() {
			args = []byte("{}")
		}
		o.Raw("input", args)
	case session.BlockToolResult:
		o.Str("type", "tool_result")
		o.Str("tool_use_id", b.ToolCallID)
		o.Str("content", b.Text)
		if b.IsError {
			o.Bool("is_error", true)
		}
	case session.BlockImage:
		o.Str("type", "image")
		var src jsonx.Obj
		if b.Data != "" || b.URL == "" {
			src.Str("type", "base64")
			src.Str("media_type", b.MimeType)
			src.Str("data", b.Data)
		} else {
			src.Str("type", "url")
			src.Str("url", b.URL)
		}
		o.Raw("source", src.Bytes())
	default:
		o.Str("type", string(b.Type))
	}
	return o.Bytes()
}

// encodeTitle spells a title line.
func encodeTitle(e *session.Entry, title, sid string, own bool) []byte {
	var x session.Extras
	if own {
		x = e.Extra
	}
	o := session.NewObj(x)
	typ, key := "custom-title", "customTitle"
	if own && e.Type == "ai-title" {
		typ, key = "ai-title", "aiTitle"
	}
	o.Str("type", typ)
	o.Str(key, title)
	o.Str("sessionId", sid)
	return o.Bytes()
}

// replaceContent is raw with message.content spelled anew from blocks.
func replaceContent(raw []byte, blocks []session.Block) []byte {
	v := gjson.ParseBytes(raw)
	var o jsonx.Obj
	v.ForEach(func(k, val gjson.Result) bool {
		if k.String() != "message" || !val.IsObject() {
			o.Raw(k.String(), json.RawMessage(val.Raw))
			return true
		}
		var m jsonx.Obj
		val.ForEach(func(mk, mv gjson.Result) bool {
			if mk.String() == "content" {
				m.Raw("content", encodeBlocks(blocks, true))
			} else {
				m.Raw(mk.String(), json.RawMessage(mv.Raw))
			}
			return true
		})
		o.Raw("message", m.Bytes())
		return true
	})
	return o.Bytes()
}

func encodeBlocks(blocks []session.Block, own bool) []byte {
	elems := make([][]byte, len(blocks))
	for i := range blocks {
		elems[i] = encodeBlock(&blocks[i], own)
	}
	return jsonx.Arr(elems)
}

// encodeToolResult spells a tool message as the tool_result block of a
// user line; r is what the block had beyond the model, for a line Claude
// Code wrote.
func encodeToolResult(m *session.Message, blocks []session.Block, r *result, own bool) []byte {
	var x session.Extras
	if r != nil {
		x = r.extra
	}
	o := session.NewObj(x)
	o.Str("type", "tool_result")
	o.Str("tool_use_id", m.ToolCallID)
	switch {
	case m.ContentIsString && len(blocks) == 1 && blocks[0].Type == session.BlockText:
		o.Str("content", blocks[0].Text)
	case !own && len(blocks) == 0:
		o.Str("content", "")
	default:
		o.Raw("content", encodeBlocks(blocks, own))
	}
	if m.IsError {
		o.Bool("is_error", true)
	}
	return o.Bytes()
}

// namedCalls gives a tool call with no id (Codex's web search has none) one
// derived from its entry and place, because Claude Code requires tool_use ids.
// The entry's own blocks are left as they are.
func namedCalls(entryID string, blocks []session.Block) []session.Block {
	out := blocks
	for i := range blocks {
		if blocks[i].Type != session.BlockToolCall || blocks[i].ToolCallID != "" {
			continue
		}
		if &out[0] == &blocks[0] {
			out = append([]session.Block(nil), blocks...)
		}
		out[i].ToolCallID = fmt.Sprintf("toolu_%s_%d", entryID, i)
	}
	return out
}
