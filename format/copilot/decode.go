package copilot

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// Event types the model has a slot for; every other type is read as an
// entry of KindOther that only this layout writes back.
const (
	evStart         = "session.start"
	evModelChange   = "session.model_change"
	evSystem        = "system.message"
	evUser          = "user.message"
	evAssistant     = "assistant.message"
	evToolStart     = "tool.execution_start"
	evToolComplete  = "tool.execution_complete"
	evSubagentStart = "subagent.started"
	evSubagentDone  = "subagent.completed"
	evSubagentFail  = "subagent.failed"
	evTurnStart     = "assistant.turn_start"
	evTurnEnd       = "assistant.turn_end"
	evUsageRecord   = "session.usage_record"
)

// envelope are the members every event has (agentId and ephemeral on some).
var envelope = []string{"type", "data", "id", "timestamp", "parentId", "agentId"}

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

// opaque marks a thinking block read with its reasoningOpaque: the blob
// only the model's provider can read, written back byte for byte by this
// layout (the line's Raw) and counted by any other as encrypted reasoning.
type opaque struct{}

// Opaque is the named loss another layout's writer counts for it.
func (opaque) Opaque() (string, int) { return "encrypted-reasoning", 1 }

// decodeStart reads the session.start event into the Meta.
func decodeStart(line []byte, n int) (*session.Meta, error) {
	v := gjson.ParseBytes(line)
	if v.Get("type").String() != evStart {
		return nil, fmt.Errorf("the first event is %q, not %s", v.Get("type").String(), evStart)
	}
	d := v.Get("data")
	if !d.IsObject() {
		return nil, fmt.Errorf("%s has no data object", evStart)
	}
	m := &session.Meta{
		ID:      d.Get("sessionId").String(),
		Cwd:     d.Get("context.cwd").String(),
		Version: d.Get("copilotVersion").String(),
		Model:   d.Get("selectedModel").String(),
		Source:  session.Source{Origin: Name, Raw: json.RawMessage(line), Line: n},
	}
	m.Created, _ = session.ParseTime(d.Get("startTime").String())
	if m.Created.IsZero() {
		m.Created, _ = session.ParseTime(v.Get("timestamp").String())
	}
	m.Extra = extras(d, "sessionId", "copilotVersion", "startTime", "selectedModel", "context")
	if c := d.Get("context"); c.IsObject() {
		if x := extras(c, "cwd"); len(x) > 0 {
			for _, f := range x {
				m.Extra = append(m.Extra, session.Field{Key: "context." + f.Key, Value: f.Value})
			}
		}
	}
	return m, nil
}

// decoder turns events into entries; it carries what later events need:
// the chain of each run (main conversation and each sub-agent) and the
// tools' names by call id.
type decoder struct {
	lastMain string            // id of the last main-conversation entry
	lastRun  map[string]string // agentId -> id of its run's last entry
	tools    map[string]string // toolCallId -> tool name, from tool.execution_start
	// usage is the last session.usage_record of each run (by agentId, ""
	// for the main one) not yet given to an assistant message: Copilot
	// logs a model call's tokens just before the message it produced.
	usage map[string]*session.Usage
}

// newDecoder starts the main conversation at its first entry: the
// session.start event it chains from is the Meta, not an entry.
func newDecoder() *decoder {
	return &decoder{lastRun: map[string]string{}, tools: map[string]string{}, usage: map[string]*session.Usage{}}
}

// entry reads one event line. Its ParentID is the entry before it in its
// own run (the main conversation, or the sub-agent's): Copilot chains every
// event to the one written before, whatever run it belongs to, and Raw
// keeps that chain for this layout's writer.
func (d *decoder) entry(line []byte, n int) (*session.Entry, error) {
	v := gjson.ParseBytes(line)
	typ := v.Get("type").String()
	if typ == "" {
		return nil, fmt.Errorf("event has no type")
	}
	data := v.Get("data")
	e := &session.Entry{
		Kind:   session.KindOther,
		Type:   typ,
		ID:     v.Get("id").String(),
		Source: session.Source{Origin: Name, Raw: json.RawMessage(line), Line: n},
	}
	e.Time, _ = session.ParseTime(v.Get("timestamp").String())
	e.Extra = extras(v, envelope...)
	// subagent.started and .completed carry the agentId of the run they
	// open and close, but mark it in the conversation that spawned it.
	run := typ != evSubagentStart && typ != evSubagentDone && typ != evSubagentFail
	if a := v.Get("agentId"); a.Exists() && run {
		e.Sidechain = a.String()
		if e.Sidechain == "" {
			e.Sidechain = "-"
		}
		e.ParentID = d.lastRun[e.Sidechain]
		d.lastRun[e.Sidechain] = e.ID
	} else {
		e.ParentID = d.lastMain
		d.lastMain = e.ID
	}
	switch typ {
	case evUser:
		e.Kind = session.KindMessage
		e.Message = &session.Message{Role: session.RoleUser, Content: textBlocks(data.Get("content").String()), ContentIsString: true}
		e.Message.Extra = extras(data, "content")
	case evSystem:
		e.Kind = session.KindMessage
		e.Message = &session.Message{Role: session.RoleSystem, Content: textBlocks(data.Get("content").String()), ContentIsString: true}
		e.Message.Extra = extras(data, "content", "role")
		if r := data.Get("role").String(); r != "" && r != "system" {
			e.Message.SourceRole = r
		}
	case evAssistant:
		e.Kind = session.KindMessage
		e.Message = d.assistant(data)
		if u := d.usage[e.Sidechain]; u != nil {
			// the call's own count; outputTokens, when there, is the same
			e.Message.Usage = u
			delete(d.usage, e.Sidechain)
		}
	case evUsageRecord:
		if u := data.Get("usage"); u.IsObject() {
			d.usage[e.Sidechain] = &session.Usage{
				Input: u.Get("inputTokens").Int(), Output: u.Get("outputTokens").Int(),
				CacheRead: u.Get("cacheReadTokens").Int(), CacheWrite: u.Get("cacheWriteTokens").Int(),
				Reasoning: u.Get("reasoningTokens").Int(),
			}
		}
		e.Custom = &session.Custom{CustomType: typ, Data: json.RawMessage(data.Raw)}
	case evToolStart:
		d.tools[data.Get("toolCallId").String()] = data.Get("toolName").String()
		e.Custom = &session.Custom{CustomType: typ, Data: json.RawMessage(data.Raw)}
	case evToolComplete:
		e.Kind = session.KindMessage
		id := data.Get("toolCallId").String()
		m := &session.Message{Role: session.RoleTool, ToolCallID: id, ToolName: d.tools[id], IsError: !data.Get("success").Bool()}
		text := data.Get("result.content").String()
		skip := []string{"toolCallId", "success", "model"}
		if e := data.Get("error"); !data.Get("result").Exists() && e.IsObject() && len(e.Map()) == 1 {
			// a failure with only its message: the message is the text
			text = e.Get("message").String()
			skip = append(skip, "error")
		}
		m.Content = textBlocks(text)
		m.ContentIsString = true
		m.Model = data.Get("model").String()
		m.Extra = extras(data, skip...)
		if r := data.Get("result"); r.IsObject() {
			for _, f := range extras(r, "content") {
				m.Extra = append(m.Extra, session.Field{Key: "result." + f.Key, Value: f.Value})
			}
		} else if r.Exists() {
			m.Extra = append(m.Extra, session.Field{Key: "result", Value: json.RawMessage(r.Raw)})
		}
		e.Message = m
	case evModelChange:
		e.Kind = session.KindModelChange
		e.ModelChange = &session.ModelChange{ModelID: data.Get("newModel").String()}
		e.Extra = append(e.Extra, extras(data, "newModel")...)
	case evSubagentStart, evSubagentDone, evSubagentFail:
		e.Kind = session.KindSubagent
		if typ != evSubagentStart {
			e.Kind = session.KindSubagentEnd
		}
		e.Subagent = &session.Subagent{
			ID:               data.Get("toolCallId").String(),
			ParentToolCallID: data.Get("toolCallId").String(),
			AgentType:        data.Get("agentType").String(),
			AgentName:        data.Get("agentName").String(),
			Result:           data.Get("error").String(),
			IsError:          typ == evSubagentFail,
		}
		e.Extra = append(e.Extra, extras(data, "toolCallId", "agentType", "agentName", "error")...)
	default:
		e.Custom = &session.Custom{CustomType: typ, Data: json.RawMessage(data.Raw)}
	}
	return e, nil
}

// assistant reads an assistant.message's data: its reasoning as a thinking
// block, its content as text, its toolRequests as tool calls.
func (d *decoder) assistant(data gjson.Result) *session.Message {
	m := &session.Message{Role: session.RoleAssistant, Model: data.Get("model").String()}
	if t := data.Get("reasoningText"); t.Exists() || data.Get("reasoningOpaque").Exists() {
		b := session.Block{Type: session.BlockThinking, Text: t.String()}
		if data.Get("reasoningOpaque").Exists() {
			b.Source = session.Source{Origin: Name, Private: opaque{}}
		}
		m.Content = append(m.Content, b)
	}
	if c := data.Get("content").String(); c != "" {
		m.Content = append(m.Content, session.Block{Type: session.BlockText, Text: c})
	}
	data.Get("toolRequests").ForEach(func(_, r gjson.Result) bool {
		b := session.Block{Type: session.BlockToolCall, ToolCallID: r.Get("toolCallId").String(), ToolName: r.Get("name").String()}
		if a := r.Get("arguments"); a.Exists() {
			b.Arguments = json.RawMessage(a.Raw)
		}
		b.Extra = extras(r, "toolCallId", "name", "arguments")
		m.Content = append(m.Content, b)
		return true
	})
	if o := data.Get("outputTokens"); o.Exists() {
		m.Usage = &session.Usage{Output: o.Int()}
	}
	m.Extra = extras(data, "model", "reasoningText", "reasoningOpaque", "content", "toolRequests", "outputTokens")
	return m
}

// textBlocks is s as one text block, or none for "".
func textBlocks(s string) []session.Block {
	if s == "" {
		return nil
	}
	return []session.Block{{Type: session.BlockText, Text: s}}
}

// isCopilotStart reports whether v is Copilot CLI's session.start event.
func isCopilotStart(v gjson.Result) bool {
	if v.Get("type").String() != evStart {
		return false
	}
	d := v.Get("data")
	return d.Get("copilotVersion").Exists() || strings.HasPrefix(d.Get("producer").String(), "copilot")
}
