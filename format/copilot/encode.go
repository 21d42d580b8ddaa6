package copilot

import (
	"bufio"
	"encoding/json"
	"fmt"
	"time"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// encoder writes a session's events, carrying what later events need: the
// id of the event before (every event names it as parentId), the tool
// calls by id (a tool result's tool.execution_start repeats its name and
// arguments) and the clock.
type encoder struct {
	w     *bufio.Writer
	meta  *session.Meta
	ids   *spell.IDs
	prev  string
	n     int
	clock session.Time
	calls map[string]session.Block
	// agents maps a sub-agent run (Sidechain) to the agentId its events
	// carry: the tool call its subagent.started names.
	agents map[string]string
	// another layout's runs, written in Copilot's order (runs.go)
	held    *heldResult
	open    *openRun
	closed  map[string]bool
	started map[string]bool
	untied  map[string]bool // runs whose call is not written
	err     error
}

func newEncoder(w *bufio.Writer, m *session.Meta, opt format.WriteOptions) *encoder {
	return &encoder{w: w, meta: m, ids: spell.NewIDs(caps.IDs, m, 0), clock: m.Created, calls: map[string]session.Block{}, agents: map[string]string{}, closed: map[string]bool{}, started: map[string]bool{}, untied: map[string]bool{}}
}

func (e *encoder) line(b []byte) {
	if e.err != nil {
		return
	}
	e.w.Write(b)
	if err := e.w.WriteByte('\n'); err != nil {
		e.err = fmt.Errorf("write: %w", err)
	}
}

// ts is an event's timestamp as Copilot spells it: milliseconds, Z. An
// entry without a time takes the last one written.
func (e *encoder) ts(t session.Time) string {
	if !t.T.IsZero() {
		e.clock = t
	}
	if e.clock.T.IsZero() {
		return spell.ISO(time.Unix(0, 0))
	}
	return spell.ISO(e.clock.T)
}

// event writes one event: the envelope in Copilot's member order around
// data, chained to the event before.
func (e *encoder) event(typ, id string, t session.Time, agent string, data []byte) {
	var o jsonx.Obj
	o.Str("type", typ).Raw("data", data).Str("id", id).Str("timestamp", e.ts(t))
	if e.prev == "" {
		o.Null("parentId")
	} else {
		o.Str("parentId", e.prev)
	}
	if agent != "" {
		o.Str("agentId", agent)
	}
	e.line(o.Bytes())
	e.prev = id
}

// start writes the session.start event: the source's own line for a
// session read from Copilot's log, else one built from the Meta.
func (e *encoder) start() {
	m := e.meta
	if m.Origin == Name && len(m.Raw) > 0 {
		e.line(m.Raw)
		var v struct{ ID string }
		_ = json.Unmarshal(m.Raw, &v)
		e.prev = v.ID
		return
	}
	var d jsonx.Obj
	d.Str("sessionId", e.ids.Session()).Int("version", 1).Str("producer", "copilot-agent").Str("copilotVersion", CLIVersion).Str("startTime", e.ts(m.Created))
	if m.Model != "" {
		d.Str("selectedModel", m.Model)
	}
	if m.Cwd != "" {
		var c jsonx.Obj
		c.Str("cwd", m.Cwd)
		d.Raw("context", c.Bytes())
	}
	e.event(evStart, e.ids.Nth(0, nil), m.Created, "", d.Bytes())
}

// entry writes one entry: its own line when it was read from Copilot's
// log, else the events Copilot writes for it.
func (e *encoder) entry(en *session.Entry) error {
	if e.err != nil {
		return e.err
	}
	if en.Origin == Name && len(en.Raw) > 0 {
		e.line(en.Raw)
		e.prev = en.ID
		return e.err
	}
	id := e.ids.Of(en.ID)
	if id == "" {
		e.n++
		id = e.ids.Mint(e.n)
	}
	agent := en.Sidechain
	if a, ok := e.agents[agent]; ok {
		agent = a
	}
	if e.offPathRun(en) {
		return e.err
	}
	if !e.beforeEntry(en, agent) {
		return e.err
	}
	switch {
	case en.Message != nil && (en.Kind == session.KindMessage || en.Kind == session.KindCustomMessage):
		e.message(en, id, agent)
	case en.Kind == session.KindModelChange && en.ModelChange != nil:
		var d jsonx.Obj
		d.Str("newModel", en.ModelChange.ModelID)
		e.event(evModelChange, id, en.Time, agent, d.Bytes())
	case en.Kind == session.KindSubagent && en.Subagent != nil:
		s := en.Subagent
		e.startCall(subagentCall(s), agent, en.Time)
		if s.ID != "" {
			e.agents[s.ID] = subagentCall(s)
		}
		var d jsonx.Obj
		d.Str("toolCallId", subagentCall(s)).Str("agentName", agentName(s)).Str("agentDisplayName", agentName(s)).Str("agentDescription", "")
		if s.AgentType != "" {
			d.Str("agentType", s.AgentType)
		}
		e.event(evSubagentStart, id, en.Time, subagentCall(s), d.Bytes())
		e.open = &openRun{call: subagentCall(s), name: agentName(s)}
	case en.Kind == session.KindSubagentEnd && en.Subagent != nil:
		s := en.Subagent
		var d jsonx.Obj
		call := subagentCall(s)
		if a, ok := e.agents[s.ID]; ok {
			call = a
		}
		d.Str("toolCallId", call).Str("agentName", agentName(s)).Str("agentDisplayName", agentName(s))
		typ := evSubagentDone
		if s.IsError {
			typ = evSubagentFail
			d.Str("error", s.Result)
		}
		e.event(typ, id, en.Time, call, d.Bytes())
		e.closed[call] = true
		if h := e.held; h != nil && h.call == call {
			e.flushHeld()
		}
	case en.Origin == Name && en.Custom != nil:
		// an event of Copilot's own read without its line (a model dump)
		e.event(en.Type, id, en.Time, agent, en.Custom.Data)
	case en.Kind == session.KindCompaction && e.err == nil:
		// dropped by the adaptation (Caps.KindsDropped): one met here is
		// Copilot's own, read without its line
		e.err = fmt.Errorf("entry %q: %s has no compaction event", en.ID, caps.Display)
	}
	return e.err
}

func subagentCall(s *session.Subagent) string {
	if s.ParentToolCallID != "" {
		return s.ParentToolCallID
	}
	return s.ID
}

func agentName(s *session.Subagent) string {
	if s.AgentName != "" {
		return s.AgentName
	}
	if s.AgentType != "" {
		return s.AgentType
	}
	return "subagent"
}

// message writes a message as the event Copilot logs for its role: a tool
// result as tool.execution_start and tool.execution_complete.
func (e *encoder) message(en *session.Entry, id, agent string) {
	m := en.Message
	t := en.Time
	if t.T.IsZero() {
		t = m.Time
	}
	switch m.Role {
	case session.RoleSystem:
		var d jsonx.Obj
		d.Str("content", m.Text()).Str("role", "system")
		e.event(evSystem, id, t, agent, d.Bytes())
	case session.RoleAssistant:
		e.assistant(m, id, t, agent)
	case session.RoleTool:
		call := e.calls[m.ToolCallID]
		name := m.ToolName
		if name == "" {
			name = call.ToolName
		}
		var s jsonx.Obj
		if agent != "" {
			s.Str("parentToolCallId", agent) // a run's, as Copilot marks them
		}
		s.Str("toolCallId", m.ToolCallID).Str("toolName", name)
		if len(call.Arguments) > 0 {
			s.Raw("arguments", call.Arguments)
		}
		if !e.started[m.ToolCallID] { // a run's call's is written before the run
			e.event(evToolStart, e.ids.Of(id+"#start"), t, agent, s.Bytes())
		}
		var r, d jsonx.Obj
		if agent != "" {
			d.Str("parentToolCallId", agent)
		}
		d.Str("toolCallId", m.ToolCallID).Bool("success", !m.IsError)
		if m.Model != "" {
			d.Str("model", m.Model)
		}
		if m.IsError {
			// a failed call's text is its error's message: what Copilot
			// sends the model back (it sends "Tool execution failed" for
			// a failed call's result.content)
			r.Str("message", toolText(m))
			d.Raw("error", r.Bytes())
		} else {
			r.Str("content", toolText(m))
			d.Raw("result", r.Bytes())
		}
		e.complete(m.ToolCallID, id, t, agent, d.Bytes())
	default: // user, and the roles mapping turned into user messages
		var d jsonx.Obj
		d.Str("content", m.Text())
		e.event(evUser, id, t, agent, d.Bytes())
	}
}

// toolText is a tool result's text: its text blocks, or an ash
// tool_result block's.
func toolText(m *session.Message) string {
	if s := m.Text(); s != "" {
		return s
	}
	for _, b := range m.Content {
		if b.Type == session.BlockToolResult {
			return b.Text
		}
	}
	return ""
}

// assistant writes an assistant.message: text as content, thinking as
// reasoningText, tool calls as toolRequests; its usage first, as the
// session.usage_record Copilot logs before the message a call produced.
func (e *encoder) assistant(m *session.Message, id string, t session.Time, agent string) {
	if u := m.Usage; u != nil {
		model := m.Model
		if model == "" {
			model = e.meta.Model
		}
		var ud, d jsonx.Obj
		ud.Str("model", model).Int("inputTokens", u.Input).Int("outputTokens", u.Output).
			Int("cacheReadTokens", u.CacheRead).Int("cacheWriteTokens", u.CacheWrite)
		if u.Reasoning != 0 {
			ud.Int("reasoningTokens", u.Reasoning)
		}
		d.Raw("usage", ud.Bytes())
		e.event(evUsageRecord, e.ids.Of(id+"#usage"), t, agent, d.Bytes())
	}
	var d jsonx.Obj
	if agent != "" {
		d.Str("parentToolCallId", agent) // a run's, as Copilot marks them
	}
	d.Str("messageId", id)
	if m.Model != "" {
		d.Str("model", m.Model)
	}
	var text, reasoning string
	var reqs [][]byte
	for _, b := range m.Content {
		switch b.Type {
		case session.BlockText:
			text = joinText(text, b.Text)
		case session.BlockThinking:
			reasoning = joinText(reasoning, b.Text)
		case session.BlockToolCall:
			e.calls[b.ToolCallID] = b
			var r jsonx.Obj
			r.Str("toolCallId", b.ToolCallID).Str("name", b.ToolName)
			if len(b.Arguments) > 0 {
				r.Raw("arguments", b.Arguments)
			} else {
				r.Raw("arguments", []byte("{}"))
			}
			r.Str("type", "function")
			reqs = append(reqs, r.Bytes())
		}
	}
	d.Str("content", text)
	if len(reqs) > 0 {
		d.Raw("toolRequests", jsonx.Arr(reqs))
	}
	if reasoning != "" {
		d.Str("reasoningText", reasoning)
	}
	e.event(evAssistant, id, t, agent, d.Bytes())
}

// joinText joins blocks' texts as Message.Text does, a newline between.
func joinText(s, t string) string {
	if s == "" {
		return t
	}
	return s + "\n" + t
}
