package codex

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"unsafe"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// A rollout line's record: its type and payload, whatever the generation.
type record struct {
	typ     string       // session_meta, response_item, event_msg, turn_context, compacted, state, ...
	payload gjson.Result // the payload (the whole line for a bare pre-wrapper line)
	kind    string       // the payload's type (an item's or an event's)
	time    string       // the line's timestamp ("" before the wrapper)
	bare    bool         // a pre-wrapper line
}

// classify reads one line. first is set for a file's first line, where
// the early Rust CLI wrote its bare header. v must be valid JSON. The line
// is walked once for the members read (the first of each name, as gjson's
// Get finds them): a payload runs to megabytes.
func classify(v gjson.Result, first bool) record {
	var typ, payload, ts gjson.Result
	state := false
	b := unsafe.Slice(unsafe.StringData(v.Raw), len(v.Raw)) // read only
	if w, ok := jsonx.WalkObject(b); ok {
		for m, ok := w.Next(); ok; m, ok = w.Next() {
			var dst *gjson.Result
			switch {
			case m.KeyIs(b, "type"):
				dst = &typ
			case m.KeyIs(b, "payload"):
				dst = &payload
			case m.KeyIs(b, "timestamp"):
				dst = &ts
			case m.KeyIs(b, "record_type"):
				state = true
				continue
			default:
				continue
			}
			if !dst.Exists() {
				*dst = m.Value(b)
			}
		}
	}
	var rec record
	switch {
	case typ.Type == gjson.String && payload.Exists():
		rec = record{typ: typ.String(), payload: payload, time: ts.String()}
	case state:
		rec = record{typ: "state", payload: v, bare: true}
	case first && !typ.Exists() && legacyHeader(v):
		rec = record{typ: "session_meta", payload: v, time: ts.String(), bare: true}
	case typ.Type == gjson.String:
		rec = record{typ: "response_item", payload: v, bare: true}
	default:
		rec = record{typ: typ.String(), payload: v}
	}
	rec.kind = rec.payload.Get("type").String()
	return rec
}

// Response item types Codex has written, and event and line types; others
// are warned about (unknown-item-type, unknown-line-type).
var (
	lineTypes = set("session_meta", "response_item", "event_msg", "turn_context", "compacted",
		"dynamic_tools_updated", "inter_agent_communication", "inter_agent_communication_metadata",
		"token_usage_record", "world_state", "retained_context", "security_risk_score", "realtime_item")
	itemTypes = set("message", "reasoning", "function_call", "function_call_output", "custom_tool_call",
		"custom_tool_call_output", "local_shell_call", "tool_search_call", "tool_search_output",
		"web_search_call", "image_generation_call", "compaction", "context_compaction", "compaction_trigger",
		"additional_tools", "agent_message", "configuration_update", "other")
)

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// decodeMeta builds the Meta from a session_meta payload.
func decodeMeta(rec record, raw []byte) *session.Meta {
	p := rec.payload
	m := &session.Meta{ID: p.Get("id").String(), Cwd: p.Get("cwd").String(), Version: p.Get("cli_version").String(),
		Provider: p.Get("model_provider").String()}
	m.Created, _ = session.ParseTime(p.Get("timestamp").String())
	if rec.time != "" && m.Created.Raw == "" {
		m.Created, _ = session.ParseTime(rec.time)
	}
	if f := p.Get("forked_from_id"); f.Type == gjson.String && f.String() != "" {
		m.Parent = &session.Parent{SessionID: f.String()}
	} else if s := p.Get("source.subagent.thread_spawn.parent_thread_id"); s.Type == gjson.String {
		m.Parent = &session.Parent{SessionID: s.String()}
	}
	m.Extra = extras(p, "id", "cwd", "cli_version", "model_provider", "timestamp")
	m.Source = session.Source{Origin: Name, Raw: raw, Line: 1, Private: &metaNote{bare: rec.bare}}
	return m
}

// metaNote is the reader's note on the header's spelling.
type metaNote struct {
	bare bool // the early Rust CLI's header, without the wrapper
	doc  bool // the TypeScript era's JSON document
	// index is the session_index.jsonl line the title was read from, which
	// Index gives back as it was when the title and id are unchanged.
	index []byte
}

// extras are the members of obj other than the named ones, in source order.
func extras(obj gjson.Result, skip ...string) session.Extras {
	var x session.Extras
	obj.ForEach(func(k, v gjson.Result) bool {
		for _, s := range skip {
			if k.Str == s {
				return true
			}
		}
		x = append(x, session.Field{Key: k.String(), Value: json.RawMessage(v.Raw)})
		return true
	})
	return x
}

// decoder turns records into entries; it carries what later lines need:
// the model the last turn_context named, and the session's start, the
// time of the lines written before Codex timed each line.
type decoder struct {
	model string
	start session.Time
	// prompted: a user message item was read since the last user_message
	// event, which then only echoes it for Codex's UI.
	prompted bool
}

// entry is the model entry for one record after the header.
func (d *decoder) entry(rec record, raw []byte, line int) *session.Entry {
	e := &session.Entry{Source: session.Source{Origin: Name, Raw: raw, Line: line}}
	e.Time, _ = session.ParseTime(rec.time)
	if rec.time == "" && rec.bare {
		e.Time = d.start
	}
	p := rec.payload
	switch rec.typ {
	case "response_item":
		d.item(e, p)
	case "compacted":
		e.Kind, e.Type = session.KindCompaction, "compacted"
		e.Compaction = &session.Compaction{Summary: p.Get("message").String()}
		if h := p.Get("replacement_history"); h.Exists() {
			e.Compaction.Details = json.RawMessage(h.Raw)
		}
	case "turn_context":
		// The model it names is each later reply's model; the rest (cwd,
		// policies, effort, instructions) has no slot in the model: an
		// entry of its own kind, given back byte for byte to Codex and a
		// named loss (turn_context-entry) elsewhere.
		if m := p.Get("model").String(); m != "" {
			d.model = m
		}
		e.Kind, e.Type = session.KindOther, "turn_context"
		e.Custom = &session.Custom{CustomType: "codex:turn_context", Data: json.RawMessage(p.Raw)}
	case "event_msg":
		if rec.kind == "user_message" {
			echo := d.prompted
			d.prompted = false
			if !echo {
				// A prompt Codex recorded only as the event (some
				// releases wrote no user item): Codex shows it as the
				// turn's user message, and so is it read.
				e.Kind, e.Type = session.KindMessage, "user_message"
				e.Message = &session.Message{Role: session.RoleUser,
					Content: []session.Block{{Type: session.BlockText, Text: p.Get("message").String()}},
					Extra:   extras(p, "type", "message")}
				break
			}
		}
		custom(e, "event_msg:"+p.Get("type").String(), p)
	case "session_meta", "state":
		custom(e, rec.typ, p)
	default:
		if lineTypes[rec.typ] {
			custom(e, rec.typ, p)
			break
		}
		e.Kind, e.Type = session.KindOther, rec.typ
		e.Custom = &session.Custom{CustomType: rec.typ, Data: json.RawMessage(raw)}
	}
	return e
}

func custom(e *session.Entry, typ string, p gjson.Result) {
	e.Kind, e.Type = session.KindCustom, typ
	e.Custom = &session.Custom{CustomType: "codex:" + typ, Data: json.RawMessage(p.Raw)}
}

// item maps one response item. Every item is an entry of its own, as
// Codex wrote it: a reasoning item is an assistant message with a
// thinking block, a function call one with a tool call block.
func (d *decoder) item(e *session.Entry, p gjson.Result) {
	typ := p.Get("type").String()
	e.Type = typ
	msg := func(role session.Role, blocks ...session.Block) {
		e.Kind = session.KindMessage
		e.Message = &session.Message{Role: role, Content: blocks}
		if role == session.RoleAssistant {
			e.Message.Model = d.model
		}
	}
	switch typ {
	case "message":
		role := p.Get("role").String()
		if role == "user" && contextual(p.Get("content")) {
			// Codex's own context for the model, not a prompt: Codex
			// neither shows nor counts it as a user message.
			custom(e, "context", p)
			break
		}
		if role == "user" {
			d.prompted = true
		}
		msg(messageRole(role), content(p.Get("content"))...)
		if string(e.Message.Role) != role {
			e.Message.SourceRole = role
		}
		x := extras(p, "type", "role", "content")
		if e.Message.Role != session.RoleAssistant {
			e.Message.Extra = x
			break
		}
		// A reply gathers several items into one message: each item's
		// own members (phase, id) stay with its blocks.
		for i := range e.Message.Content {
			e.Message.Content[i].Extra = append(e.Message.Content[i].Extra, x...)
		}
	case "reasoning":
		b := session.Block{Type: session.BlockThinking, Text: reasoningText(p)}
		if enc := p.Get("encrypted_content"); enc.Exists() {
			b.Source = session.Source{Origin: Name, Private: opaque{kind: "encrypted-reasoning"}}
		}
		b.Extra = extras(p, "type", "summary", "content", "encrypted_content")
		msg(session.RoleAssistant, b)
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "tool_search_call", "image_generation_call":
		b := toolCall(typ, p)
		msg(session.RoleAssistant, b)
	case "function_call_output", "custom_tool_call_output", "tool_search_output":
		msg(session.RoleTool, session.Block{Type: session.BlockText, Text: outputText(p.Get("output"))})
		e.Message.ToolCallID = p.Get("call_id").String()
		e.Message.ToolName = p.Get("name").String()
		if p.Get("output.success").Type == gjson.False {
			e.Message.IsError = true
		}
	default:
		e.Kind = session.KindOther
		e.Type = "response_item:" + typ
		e.Custom = &session.Custom{CustomType: e.Type, Data: json.RawMessage(p.Raw)}
	}
}

// contextualPrefixes start the user items Codex writes itself (the
// environment, AGENTS.md, a skill, a shell command the user ran, an
// aborted turn, a sub-agent's notice) rather than the user's prompts; Codex
// tells them apart by these openings (its contextual user fragments).
var contextualPrefixes = []string{"<environment_context>", "<user_instructions>", "# AGENTS.md instructions for ",
	"<skill>", "<user_shell_command>", "<turn_aborted>", "<subagent_notification>"}

// contextual reports whether a user message's content is Codex's own
// context: one of its texts opens with a contextual fragment.
func contextual(c gjson.Result) bool {
	found := false
	c.ForEach(func(_, it gjson.Result) bool {
		if it.Get("type").String() != "input_text" {
			return true
		}
		t := strings.TrimLeft(it.Get("text").String(), " \t\r\n")
		for _, p := range contextualPrefixes {
			if strings.HasPrefix(t, p) {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// messageRole maps Codex's message roles onto the model's.
func messageRole(r string) session.Role {
	switch r {
	case "user", "assistant", "developer", "system":
		return session.Role(r)
	case "tool":
		return session.RoleTool
	}
	return session.Role(r)
}

// content maps a message's content items: input_text and output_text are
// text, input_image an image (inline data or a URL); any other item is a
// block of its own type, which other layouts name as lost.
func content(c gjson.Result) []session.Block {
	out := []session.Block{}
	if c.Type == gjson.String {
		return append(out, session.Block{Type: session.BlockText, Text: c.String()})
	}
	c.ForEach(func(_, it gjson.Result) bool {
		switch t := it.Get("type").String(); t {
		case "input_text", "output_text", "text", "summary_text":
			out = append(out, session.Block{Type: session.BlockText, Text: it.Get("text").String(),
				Extra: extras(it, "type", "text")})
		case "input_image":
			out = append(out, image(it))
		default:
			out = append(out, session.Block{Type: session.BlockType(t), Extra: extras(it, "type")})
		}
		return true
	})
	return out
}

// image reads an input_image item: a data: URL becomes an image with
// inline data, an http(s) URL an image known only by where it is (a file
// block, as goat's image_url is).
func image(it gjson.Result) session.Block {
	b := session.Block{Type: session.BlockImage, Extra: extras(it, "type", "image_url")}
	u := it.Get("image_url").String()
	if rest, ok := strings.CutPrefix(u, "data:"); ok {
		if mime, data, ok := strings.Cut(rest, ";base64,"); ok {
			if _, err := base64.StdEncoding.DecodeString(data); err == nil {
				b.MimeType, b.Data = mime, data
				return b
			}
		}
	}
	if strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") {
		b.Type, b.URL = session.BlockFile, u
		return b
	}
	// Neither data nor a URL (a sanitized copy's placeholder): a block of
	// its own, which other layouts name as lost.
	return session.Block{Type: "input_image", Extra: extras(it, "type")}
}

// reasoningText joins a reasoning item's summary and content texts.
func reasoningText(p gjson.Result) string {
	var parts []string
	for _, k := range []string{"summary", "content"} {
		p.Get(k).ForEach(func(_, it gjson.Result) bool {
			if t := it.Get("text"); t.Type == gjson.String {
				parts = append(parts, t.String())
			}
			return true
		})
	}
	return strings.Join(parts, "\n\n")
}

// toolCall maps a call item onto a tool call block. A function call's
// arguments are a JSON string holding an object; a custom tool's input is
// free text (apply_patch), kept as {"input": ...}; a shell call's action
// and a web search's action are the arguments themselves.
func toolCall(typ string, p gjson.Result) session.Block {
	b := session.Block{Type: session.BlockToolCall, ToolCallID: p.Get("call_id").String(), ToolName: p.Get("name").String()}
	if b.ToolCallID == "" {
		b.ToolCallID = p.Get("id").String()
	}
	var args []byte
	switch typ {
	case "function_call":
		s := p.Get("arguments")
		if a := gjson.Parse(s.String()); s.Type == gjson.String && a.IsObject() && gjson.Valid(s.String()) {
			args = []byte(a.Raw)
		} else {
			args = objWith("arguments", s)
		}
	case "custom_tool_call":
		args = objWith("input", p.Get("input"))
	case "tool_search_call":
		args = objectOr("arguments", p.Get("arguments"))
		b.ToolName = "tool_search"
	default:
		args = objectOr("action", p.Get("action"))
		b.ToolName = strings.TrimSuffix(typ, "_call")
	}
	if len(args) == 0 || args[0] != '{' {
		args = []byte("{}")
	}
	b.Arguments = json.RawMessage(args)
	b.Source = session.Source{Origin: Name, Private: &callNote{typ: typ}}
	b.Extra = extras(p, "type", "call_id", "name", "arguments", "input", "action")
	if p.Get("encrypted_content").Exists() {
		b.Extra.Delete("encrypted_content")
		b.Source.Private = &callNote{typ: typ, opaque: true}
	}
	return b
}

// callNote says which item a tool call block was read from.
type callNote struct {
	typ    string
	opaque bool // it carried encrypted_content
}

// Opaque is the named loss another layout's writer counts for it.
func (n *callNote) Opaque() (string, int) {
	if n.opaque {
		return "encrypted-reasoning", 1
	}
	return "", 0
}

// objectOr is v when it is an object, nothing when it is absent, and
// otherwise v under key: arguments are an object, and what is not one is
// kept all the same.
func objectOr(key string, v gjson.Result) []byte {
	switch {
	case v.IsObject():
		return []byte(v.Raw)
	case !v.Exists():
		return nil
	}
	return objWith(key, v)
}

func objWith(key string, v gjson.Result) []byte {
	raw := v.Raw
	if raw == "" {
		raw = `""`
	}
	return []byte(`{"` + key + `":` + raw + `}`)
}

// outputText is a tool output's text: a string, {content, success} (older
// CLIs), or a list of content items whose texts are joined.
func outputText(o gjson.Result) string {
	switch {
	case o.Type == gjson.String:
		return o.String()
	case o.IsObject() && o.Get("content").Exists():
		return outputText(o.Get("content"))
	case o.IsArray():
		var parts []string
		o.ForEach(func(_, it gjson.Result) bool {
			if t := it.Get("text"); t.Type == gjson.String {
				parts = append(parts, t.String())
			}
			return true
		})
		return strings.Join(parts, "\n")
	}
	return o.Raw
}

// opaque marks a block that carries data only the provider can read
// (reasoning's encrypted_content): written back byte for byte by this
// layout, a named loss in any other.
type opaque struct{ kind string }

// Opaque is the loss kind and count another layout's writer counts.
func (o opaque) Opaque() (string, int) { return o.kind, 1 }
