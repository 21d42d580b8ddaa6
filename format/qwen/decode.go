package qwen

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// note is the reader's note on how a line spelled what the model holds,
// for this layout's writer alone (session.Source.Private).
type note struct {
	// noParent, noTime: the line has no parentUuid, no timestamp (a
	// line validate refuses, still written back as it was).
	noParent, noTime bool
	// noMessage: an assistant line with no message member
	noMessage bool
	// omitted: the session members (sessionId, cwd, version) the line
	// repeats with the session's value, left to the Meta.
	omitted []string
	// toolForm: a tool_result line of functionResponses alone, read as
	// a tool message each; responseRaw: its response was not {output} or
	// {error} alone, so the message's text is the response's JSON.
	toolForm, responseRaw bool
	// group: the line's tool messages when it answers several calls
	// (group.n of them, this one the index-th); the last has the line's
	// uuid, the others uuid#index, so what hangs from the line hangs from
	// the last.
	group *group
	index int
}

// group is one tool_result line read as several tool messages.
type group struct {
	n     int
	extra []byte // the line's members besides the envelope and message, as an object
}

// partID is the id of a tool message of a line answering several calls,
// but the last.
func partID(uuid string, i int) string { return uuid + "#" + strconv.Itoa(i) }

func noteOf(p any) *note {
	n, _ := p.(*note)
	return n
}

// lineSlots are the members of a line the model holds.
var lineSlots = map[string]bool{"type": true, "uuid": true, "parentUuid": true, "timestamp": true, "message": true}

// assistantSlots are the members an assistant line adds that the model holds.
var assistantSlots = map[string]bool{"model": true, "usageMetadata": true}

// sessionSlots are the members every line repeats that the Meta holds.
var sessionSlots = []string{"sessionId", "cwd", "version"}

// compactMark marks the user line a compaction summary of another layout
// is written as: Qwen Code reads it as any user line (so the model sees the
// summary), sesstool reads it back as the compaction.
const compactMark = "isCompactSummary"

// decodeMeta reads the session's own data from its first line.
func decodeMeta(raw []byte) *session.Meta {
	v := gjson.ParseBytes(raw)
	m := &session.Meta{
		ID:      v.Get("sessionId").String(),
		Cwd:     v.Get("cwd").String(),
		Version: v.Get("version").String(),
		Source:  session.Source{Origin: Name},
	}
	if t := v.Get("timestamp"); t.Type == gjson.String {
		m.Created, _ = session.ParseTime(t.String())
	}
	return m
}

// decodeLine turns one line into an entry; meta is the session's, for the
// members every line repeats.
func decodeLine(raw []byte, n int, meta *session.Meta) ([]*session.Entry, error) {
	v := gjson.ParseBytes(raw)
	if !v.IsObject() {
		return nil, fmt.Errorf("a line must be a JSON object")
	}
	typ := v.Get("type").String()
	nt := &note{}
	e := &session.Entry{Type: typ, Source: session.Source{Origin: Name, Raw: raw, Line: n, Private: nt}}
	e.ID = v.Get("uuid").String()
	if p := v.Get("parentUuid"); p.Type == gjson.String {
		e.ParentID = p.String()
	} else if !p.Exists() {
		nt.noParent = true
	}
	if t := v.Get("timestamp"); t.Type == gjson.String {
		e.Time, _ = session.ParseTime(t.String())
	} else if !t.Exists() {
		nt.noTime = true
	}
	m := v.Get("message")
	switch {
	case typ == "tool_result" && m.IsObject() && toolParts(m) > 0:
		return toolEntries(v, raw, n, meta, e, nt), nil
	case typ == "assistant" && !m.Exists():
		// an assistant turn recorded with no message (recordAssistantTurn
		// writes one only when there is one): usage alone
		nt.noMessage = true
		msg := &session.Message{Role: session.RoleAssistant, ContentIsNull: true, Model: v.Get("model").String()}
		if u := v.Get("usageMetadata"); u.IsObject() {
			msg.Usage = decodeUsage(u)
		}
		e.Kind, e.Message = session.KindMessage, msg
		e.Extra = extras(v, merged(lineSlots, assistantSlots), meta, nt)
		return []*session.Entry{e}, nil
	case (typ == "user" || typ == "assistant" || typ == "tool_result") && m.IsObject():
		msg := decodeMessage(m, typ, nt)
		slots := lineSlots
		if typ == "assistant" {
			slots = merged(lineSlots, assistantSlots)
			msg.Model = v.Get("model").String()
			if u := v.Get("usageMetadata"); u.IsObject() {
				msg.Usage = decodeUsage(u)
			}
		}
		e.Kind, e.Message = session.KindMessage, msg
		e.Extra = extras(v, slots, meta, nt)
		if typ == "user" && v.Get(compactMark).Type == gjson.True {
			// another layout's compaction summary, as this layout's
			// writer hands it on (a user line the model reads)
			e.Kind, e.Message, e.Extra = session.KindCompaction, nil, nil
			e.Compaction = &session.Compaction{Summary: msg.Text()}
			e.Custom = &session.Custom{CustomType: "compact_summary", Data: raw}
		}
		return []*session.Entry{e}, nil
	case typ == "system" && v.Get("subtype").String() == "custom_title" && v.Get("systemPayload.customTitle").Type == gjson.String:
		e.Kind, e.Title = session.KindSessionInfo, v.Get("systemPayload.customTitle").String()
		e.Custom = &session.Custom{CustomType: "custom_title", Data: raw}
		return []*session.Entry{e}, nil
	case typ == "system" && v.Get("subtype").String() == "chat_compression":
		e.Kind = session.KindCompaction
		e.Compaction = &session.Compaction{Summary: compressedText(v.Get("systemPayload.compressedHistory"))}
		if p := v.Get("systemPayload.info"); p.IsObject() {
			if t := p.Get("originalTokenCount"); t.Type == gjson.Number {
				n := t.Int()
				e.Compaction.TokensBefore = &n
			}
			if t := p.Get("newTokenCount"); t.Type == gjson.Number {
				n := t.Int()
				e.Compaction.TokensAfter = &n
			}
		}
		e.Custom = &session.Custom{CustomType: "chat_compression", Data: raw}
		return []*session.Entry{e}, nil
	}
	// Every other line (system records, a newer type): kept whole, for
	// this layout's writer alone; another layout counts it as lost.
	e.Kind = session.KindOther
	ct := typ
	if st := v.Get("subtype"); st.Type == gjson.String {
		ct += ":" + st.String()
	}
	e.Custom = &session.Custom{CustomType: ct, Data: raw}
	return []*session.Entry{e}, nil
}

// toolParts is how many functionResponse parts a tool_result line's
// message has when it has nothing else (and the role "user" and no other
// member): the tool messages it is read as; 0 otherwise.
func toolParts(m gjson.Result) int {
	if m.Get("role").String() != "user" {
		return 0
	}
	only := true
	m.ForEach(func(k, _ gjson.Result) bool { only = k.String() == "role" || k.String() == "parts"; return only })
	arr := m.Get("parts").Array()
	if !only || len(arr) == 0 {
		return 0
	}
	for _, p := range arr {
		if !isToolForm(p) {
			return 0
		}
	}
	return len(arr)
}

// toolEntries reads a tool_result line of functionResponses alone: one
// tool message a response, in order; the last has the line's uuid.
func toolEntries(v gjson.Result, raw []byte, n int, meta *session.Meta, base *session.Entry, nt *note) []*session.Entry {
	arr := v.Get("message.parts").Array()
	x := extras(v, lineSlots, meta, nt)
	var g *group
	if len(arr) > 1 {
		g = &group{n: len(arr)}
	}
	out := make([]*session.Entry, len(arr))
	for i, p := range arr {
		e := *base
		pn := *nt
		pn.index, pn.group = i, g
		e.Private = &pn
		fr := p.Get("functionResponse")
		msg := &session.Message{Role: session.RoleTool, ToolCallID: fr.Get("id").String(), ToolName: fr.Get("name").String()}
		text, isErr, rawForm := responseText(fr.Get("response"))
		msg.IsError = isErr
		pn.toolForm, pn.responseRaw = true, rawForm
		msg.Content = []session.Block{{Type: session.BlockText, Text: text}}
		e.Kind, e.Message = session.KindMessage, msg
		if i < len(arr)-1 {
			e.ID = partID(base.ID, i)
			e.Raw = nil // the line is written once, with its last message
		}
		if i > 0 {
			e.ParentID = partID(base.ID, i-1)
		}
		if i == len(arr)-1 {
			e.Extra = x
		}
		out[i] = &e
	}
	return out
}

// compressedText is the text of a compression's snapshot of the history,
// which is what the model continues from.
func compressedText(h gjson.Result) string {
	var s string
	h.ForEach(func(_, c gjson.Result) bool {
		c.Get("parts").ForEach(func(_, p gjson.Result) bool {
			if t := p.Get("text"); t.Type == gjson.String && !p.Get("thought").Bool() {
				if s != "" {
					s += "\n"
				}
				s += t.String()
			}
			return true
		})
		return true
	})
	return s
}

func merged(a, b map[string]bool) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
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
		if same, ok := sessionValue(meta, key); ok && val.Type == gjson.String && val.String() == same {
			nt.omitted = append(nt.omitted, key)
			return true
		}
		x = append(x, session.Field{Key: key, Value: json.RawMessage(val.Raw)})
		return true
	})
	return x
}

func sessionValue(m *session.Meta, key string) (string, bool) {
	switch key {
	case "sessionId":
		return m.ID, true
	case "cwd":
		return m.Cwd, true
	case "version":
		return m.Version, true
	}
	return "", false
}

// decodeMessage reads a Gemini Content ({role, parts}). A tool_result line
// of one functionResponse is a tool message; any other keeps its
// functionResponse parts as tool_result blocks.
func decodeMessage(m gjson.Result, typ string, nt *note) *session.Message {
	msg := &session.Message{Role: session.RoleUser}
	role := m.Get("role").String()
	// Gemini's roles are "user" and "model"; a line's other spelling is
	// kept as the source role.
	if typ == "assistant" {
		msg.Role = session.RoleAssistant
		if role != "model" {
			msg.SourceRole = role
		}
	} else if role != "user" {
		msg.SourceRole = role
	}
	m.ForEach(func(k, val gjson.Result) bool {
		if key := k.String(); key != "role" && key != "parts" {
			msg.Extra = append(msg.Extra, session.Field{Key: key, Value: json.RawMessage(val.Raw)})
		}
		return true
	})
	parts := m.Get("parts")
	if !parts.Exists() {
		msg.ContentIsNull = true
	}
	parts.ForEach(func(_, p gjson.Result) bool {
		msg.Content = append(msg.Content, decodePart(p))
		return true
	})
	return msg
}

// isToolForm: a part that is a functionResponse with a string id and name
// and nothing else, so the tool message spells it back exactly.
func isToolForm(p gjson.Result) bool {
	fr := p.Get("functionResponse")
	if !fr.IsObject() || fr.Get("id").Type != gjson.String || fr.Get("name").Type != gjson.String {
		return false
	}
	only := true
	p.ForEach(func(k, _ gjson.Result) bool { only = k.String() == "functionResponse"; return only })
	fr.ForEach(func(k, _ gjson.Result) bool {
		switch k.String() {
		case "id", "name", "response":
		default:
			only = false
		}
		return only
	})
	return only
}

// responseText is a functionResponse's response as text: its output (or
// error) when that is all it holds, else the response's JSON (rawForm).
func responseText(r gjson.Result) (text string, isErr, rawForm bool) {
	if r.IsObject() {
		n := 0
		r.ForEach(func(_, _ gjson.Result) bool { n++; return true })
		if n == 1 {
			if o := r.Get("output"); o.Type == gjson.String {
				return o.String(), false, false
			}
			if o := r.Get("error"); o.Type == gjson.String {
				return o.String(), true, false
			}
		}
	}
	if !r.Exists() {
		return "", false, true
	}
	return r.Raw, false, true
}

// partSlots are the members of a part the model holds, by the part's kind.
var partSlots = map[string]bool{"text": true, "thought": true, "thoughtSignature": true,
	"functionCall": true, "functionResponse": true, "inlineData": true, "fileData": true}

// decodePart reads one Gemini Part into a block.
func decodePart(p gjson.Result) session.Block {
	var b session.Block
	if !p.IsObject() {
		b.Type = session.BlockText
		b.Extra = session.Extras{{Key: "", Value: json.RawMessage(p.Raw)}}
		return b
	}
	b.Signature = p.Get("thoughtSignature").String()
	switch {
	case p.Get("functionCall").IsObject():
		fc := p.Get("functionCall")
		b.Type, b.ToolCallID, b.ToolName = session.BlockToolCall, fc.Get("id").String(), fc.Get("name").String()
		b.Arguments = json.RawMessage("{}")
		if a := fc.Get("args"); a.IsObject() {
			b.Arguments = json.RawMessage(a.Raw)
		}
	case p.Get("functionResponse").IsObject():
		fr := p.Get("functionResponse")
		b.Type, b.ToolCallID, b.ToolName = session.BlockToolResult, fr.Get("id").String(), fr.Get("name").String()
		b.Text, b.IsError, _ = responseText(fr.Get("response"))
	case p.Get("inlineData").IsObject():
		d := p.Get("inlineData")
		b.Type, b.MimeType, b.Data = session.BlockFile, d.Get("mimeType").String(), d.Get("data").String()
		if isImage(b.MimeType) {
			b.Type = session.BlockImage
		}
	case p.Get("fileData").IsObject():
		d := p.Get("fileData")
		b.Type, b.MimeType, b.URL = session.BlockFile, d.Get("mimeType").String(), d.Get("fileUri").String()
	case p.Get("text").Type == gjson.String:
		b.Type, b.Text = session.BlockText, p.Get("text").String()
		if p.Get("thought").Type == gjson.True {
			b.Type = session.BlockThinking
		}
	default:
		b.Type = session.BlockText
		b.Extra = session.Extras{{Key: "", Value: json.RawMessage(p.Raw)}}
		return b
	}
	p.ForEach(func(k, val gjson.Result) bool {
		key := k.String()
		if partSlots[key] && !(key == "thought" && b.Type != session.BlockThinking) {
			return true
		}
		b.Extra = append(b.Extra, session.Field{Key: key, Value: json.RawMessage(val.Raw)})
		return true
	})
	return b
}

func isImage(mime string) bool { return len(mime) > 6 && mime[:6] == "image/" }

// usageSlots are the members of usageMetadata the model holds.
var usageSlots = map[string]bool{"promptTokenCount": true, "candidatesTokenCount": true, "cachedContentTokenCount": true, "thoughtsTokenCount": true, "totalTokenCount": true}

// decodeUsage reads Gemini's usageMetadata. promptTokenCount counts the
// cached tokens too; the model's Input does not.
func decodeUsage(u gjson.Result) *session.Usage {
	us := &session.Usage{
		CacheRead: u.Get("cachedContentTokenCount").Int(),
		Output:    u.Get("candidatesTokenCount").Int(),
		Reasoning: u.Get("thoughtsTokenCount").Int(),
	}
	us.Input = u.Get("promptTokenCount").Int() - us.CacheRead
	if t := u.Get("totalTokenCount"); t.Type == gjson.Number {
		n := t.Int()
		us.Total = &n
	}
	u.ForEach(func(k, val gjson.Result) bool {
		if !usageSlots[k.String()] {
			us.Extra = append(us.Extra, session.Field{Key: k.String(), Value: json.RawMessage(val.Raw)})
		}
		return true
	})
	return us
}
