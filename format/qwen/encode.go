package qwen

import (
	"encoding/json"
	"strings"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// envelope is what a line says besides its record: ids, time, type and the
// session members every line repeats.
type envelope struct {
	uuid, parent, session, time, typ, cwd, version string
	noParent, noTime                               bool // members the line did not have
	// noMessage: an assistant turn with nothing to say is written with
	// no message, as Qwen Code records one: a model Content with no parts
	// would make it drop the turn before it from the history it sends
	noMessage  bool
	provenance string
	// members: which of sessionId, cwd and version to write (an own
	// line writes those it had; a new line all three)
	members map[string]bool
}

func (l envelope) start(o *jsonx.Obj) {
	o.Str("uuid", l.uuid)
	switch {
	case l.parent != "":
		o.Str("parentUuid", l.parent)
	case !l.noParent:
		o.Null("parentUuid")
	}
	if l.members["sessionId"] {
		o.Str("sessionId", l.session)
	}
	if !l.noTime || l.time != "" {
		o.Str("timestamp", l.time)
	}
	o.Str("type", l.typ)
	if l.provenance != "" {
		o.Str("provenance", l.provenance)
	}
	if l.members["cwd"] {
		o.Str("cwd", l.cwd)
	}
	if l.members["version"] {
		o.Str("version", l.version)
	}
}

// encodeMessage is a message line: the envelope, the line's own extras,
// the Gemini Content, and an assistant's model and usage. rawUsage is the
// usage the line was read with (its members decide which counts a line of
// this layout spells), or an empty result.
func encodeMessage(e *session.Entry, l envelope, nt *note, rawUsage gjson.Result) []byte {
	m := e.Message
	var o jsonx.Obj
	l.start(&o)
	for _, f := range e.Extra {
		o.Extra(f.Key, f.Value)
	}
	if !l.noMessage {
		o.Append("message", func(dst []byte) []byte { return appendContent(dst, m, l.typ, nt) })
	}
	if m.Model != "" && l.typ == "assistant" {
		o.Str("model", m.Model)
	}
	if m.Usage != nil && l.typ == "assistant" {
		o.Append("usageMetadata", func(dst []byte) []byte { return appendUsage(dst, m.Usage, rawUsage) })
	}
	return o.Bytes()
}

// appendContent spells a message as Gemini's Content: role "user", or
// "model" for an assistant, and its parts.
func appendContent(dst []byte, m *session.Message, typ string, nt *note) []byte {
	o := jsonx.ObjAt(dst)
	role := "user"
	if typ == "assistant" {
		role = "model"
	}
	if m.SourceRole != "" {
		role = m.SourceRole
	}
	o.Str("role", role)
	switch {
	case m.Role == session.RoleTool:
		o.Append("parts", func(dst []byte) []byte {
			dst = append(dst, '[')
			dst = appendResponsePart(dst, m.ToolCallID, m.ToolName, m.Text(), m.IsError, nt != nil && nt.responseRaw)
			return append(dst, ']')
		})
	case m.ContentIsNull && len(m.Content) == 0:
	default:
		o.Append("parts", func(dst []byte) []byte {
			dst = append(dst, '[')
			for i := range m.Content {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = appendPart(dst, &m.Content[i])
			}
			return append(dst, ']')
		})
	}
	for _, f := range m.Extra {
		o.Extra(f.Key, f.Value)
	}
	return o.Bytes()
}

// appendResponsePart is a functionResponse part: the response is
// {output} or {error}, or, when the reader found another shape, the JSON
// the text holds.
func appendResponsePart(dst []byte, id, name, text string, isErr, rawForm bool) []byte {
	o := jsonx.ObjAt(dst)
	o.Append("functionResponse", func(dst []byte) []byte {
		fr := jsonx.ObjAt(dst)
		fr.Str("id", id)
		fr.Str("name", name)
		switch {
		case rawForm && text == "":
		case rawForm && json.Valid([]byte(text)):
			fr.Raw("response", []byte(text))
		case isErr:
			fr.Append("response", func(dst []byte) []byte { r := jsonx.ObjAt(dst); r.Str("error", text); return r.Bytes() })
		default:
			fr.Append("response", func(dst []byte) []byte { r := jsonx.ObjAt(dst); r.Str("output", text); return r.Bytes() })
		}
		return fr.Bytes()
	})
	return o.Bytes()
}

// appendPart spells one block as a Gemini Part.
func appendPart(dst []byte, b *session.Block) []byte {
	if len(b.Extra) == 1 && b.Extra[0].Key == "" {
		return append(dst, b.Extra[0].Value...) // a part the reader did not know, as it was
	}
	o := jsonx.ObjAt(dst)
	switch b.Type {
	case session.BlockThinking:
		o.Str("text", b.Text)
		o.Bool("thought", true)
	case session.BlockToolCall:
		o.Append("functionCall", func(dst []byte) []byte {
			fc := jsonx.ObjAt(dst)
			if b.ToolCallID != "" {
				fc.Str("id", b.ToolCallID)
			}
			fc.Str("name", b.ToolName)
			args := []byte(b.Arguments)
			if len(args) == 0 || !gjson.ValidBytes(args) || !gjson.ParseBytes(args).IsObject() {
				args = []byte("{}")
			}
			fc.Raw("args", args)
			return fc.Bytes()
		})
	case session.BlockToolResult:
		return appendResponseInto(&o, b)
	case session.BlockImage:
		o.Append("inlineData", func(dst []byte) []byte {
			d := jsonx.ObjAt(dst)
			d.Str("mimeType", b.MimeType)
			d.Str("data", b.Data)
			return d.Bytes()
		})
	case session.BlockFile:
		if b.Data != "" || b.URL == "" {
			o.Append("inlineData", func(dst []byte) []byte {
				d := jsonx.ObjAt(dst)
				d.Str("mimeType", b.MimeType)
				d.Str("data", b.Data)
				return d.Bytes()
			})
		} else {
			o.Append("fileData", func(dst []byte) []byte {
				d := jsonx.ObjAt(dst)
				d.Str("mimeType", b.MimeType)
				d.Str("fileUri", b.URL)
				return d.Bytes()
			})
		}
	default:
		o.Str("text", b.Text)
	}
	if b.Signature != "" {
		o.Str("thoughtSignature", b.Signature)
	}
	for _, f := range b.Extra {
		o.Extra(f.Key, f.Value)
	}
	return o.Bytes()
}

func appendResponseInto(o *jsonx.Obj, b *session.Block) []byte {
	text := strings.TrimSpace(b.Text)
	raw := len(text) > 0 && text[0] == '{' && json.Valid([]byte(text)) && !gjson.Get(text, "output").Exists()
	part := appendResponsePart(nil, b.ToolCallID, b.ToolName, b.Text, b.IsError, raw)
	gjson.ParseBytes(part).ForEach(func(k, v gjson.Result) bool {
		o.Raw(k.String(), []byte(v.Raw))
		return true
	})
	if b.Signature != "" {
		o.Str("thoughtSignature", b.Signature)
	}
	for _, f := range b.Extra {
		o.Extra(f.Key, f.Value)
	}
	return o.Bytes()
}

// appendUsage spells usage as Gemini's usageMetadata: every count a new
// line has, and for a line read here only those it had (or that are not 0).
func appendUsage(dst []byte, u *session.Usage, raw gjson.Result) []byte {
	o := jsonx.ObjAt(dst)
	has := func(k string, v int64) bool { return !raw.Exists() || raw.Get(k).Exists() || v != 0 }
	if v := u.Input + u.CacheRead; has("promptTokenCount", v) {
		o.Int("promptTokenCount", v)
	}
	if has("candidatesTokenCount", u.Output) {
		o.Int("candidatesTokenCount", u.Output)
	}
	if has("thoughtsTokenCount", u.Reasoning) {
		o.Int("thoughtsTokenCount", u.Reasoning)
	}
	if u.Total != nil {
		o.Int("totalTokenCount", *u.Total)
	} else if !raw.Exists() {
		o.Int("totalTokenCount", u.Input+u.CacheRead+u.Output+u.Reasoning)
	}
	if has("cachedContentTokenCount", u.CacheRead) {
		o.Int("cachedContentTokenCount", u.CacheRead)
	}
	for _, f := range u.Extra {
		o.Extra(f.Key, f.Value)
	}
	return o.Bytes()
}

// encodeTitle is a custom_title system line.
func encodeTitle(l envelope, title string) []byte {
	var o jsonx.Obj
	l.start(&o)
	o.Str("subtype", "custom_title")
	o.Append("systemPayload", func(dst []byte) []byte {
		p := jsonx.ObjAt(dst)
		p.Str("customTitle", title)
		return p.Bytes()
	})
	return o.Bytes()
}

// retitle is an own custom_title line with its title changed: every other
// member as it was.
func retitle(raw []byte, title string) []byte {
	var o jsonx.Obj
	gjson.ParseBytes(raw).ForEach(func(k, v gjson.Result) bool {
		if k.String() != "systemPayload" {
			o.Raw(k.String(), []byte(v.Raw))
			return true
		}
		o.Append("systemPayload", func(dst []byte) []byte {
			p := jsonx.ObjAt(dst)
			v.ForEach(func(pk, pv gjson.Result) bool {
				if pk.String() == "customTitle" {
					p.Str("customTitle", title)
				} else {
					p.Raw(pk.String(), []byte(pv.Raw))
				}
				return true
			})
			return p.Bytes()
		})
		return true
	})
	return o.Bytes()
}
