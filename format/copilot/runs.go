package copilot

import (
	"fmt"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// Another layout's sub-agent runs are written as Copilot CLI 1.0.102 logs
// a run it starts from its task tool: the call's tool.execution_start,
// subagent.started, the run's own events (agentId and data.parentToolCallId
// naming the call), subagent.completed, and only then the call's
// tool.execution_complete, whose result is what the run answered. A
// source gives the call's result before the run (Claude Code names the run
// in it), so a main tool result's completion is held until the next entry
// shows whether a run of that call follows.

// heldResult is a main tool result's tool.execution_complete, not yet
// written.
type heldResult struct {
	call  string
	id    string
	t     session.Time
	data  []byte
	agent string
}

// openRun is a run whose subagent.started is written and whose
// subagent.completed is not.
type openRun struct {
	call string // the agentId its events carry
	name string
}

// complete writes a tool result's tool.execution_complete: a main one is
// held (runs.go), a run's written at once.
func (e *encoder) complete(call, id string, t session.Time, agent string, data []byte) {
	if agent != "" {
		e.event(evToolComplete, id, t, agent, data)
		return
	}
	if t.T.IsZero() {
		t = e.clock // the time it would have been written at
	}
	e.flushHeld()
	e.held = &heldResult{call: call, id: id, t: t, data: data, agent: agent}
}

// flushHeld writes the held tool result, if any.
func (e *encoder) flushHeld() {
	if h := e.held; h != nil {
		e.held = nil
		e.event(evToolComplete, h.id, h.t, h.agent, h.data)
	}
}

// beforeEntry closes what en does not continue: the open run when en is
// not one of its events (its subagent.completed is written, as the
// source had none), and the held tool result unless en starts or is part
// of a run of its call. It reports false for an end of a run already closed, which
// is not written twice.
func (e *encoder) beforeEntry(en *session.Entry, agent string) bool {
	if en.Kind == session.KindSubagentEnd && en.Subagent != nil {
		call := e.runCall(en.Subagent)
		if e.closed[call] {
			return false
		}
		if r := e.open; r != nil && r.call == call {
			e.open = nil
			return true // written by entry, then the held result
		}
	}
	if r := e.open; r != nil && agent != r.call {
		e.open = nil
		e.closeRun(r, session.Time{})
	}
	if h := e.held; h != nil && agent != h.call && !(en.Kind == session.KindSubagent && en.Subagent != nil && subagentCall(en.Subagent) == h.call) {
		e.flushHeld()
	}
	return true
}

// runCall is the agentId the events of the run s names carry.
func (e *encoder) runCall(s *session.Subagent) string {
	if a, ok := e.agents[s.ID]; ok {
		return a
	}
	return subagentCall(s)
}

// closeRun writes the subagent.completed of a run the source did not end.
func (e *encoder) closeRun(r *openRun, t session.Time) {
	e.closed[r.call] = true
	var d jsonx.Obj
	e.n++
	d.Str("toolCallId", r.call).Str("agentName", r.name).Str("agentDisplayName", r.name)
	e.event(evSubagentDone, e.ids.Mint(e.n), t, r.call, d.Bytes())
	if h := e.held; h != nil && h.call == r.call {
		e.flushHeld()
	}
}

// startCall writes the tool.execution_start of the call that starts a
// run, when the run comes before the call's result (the model's layout
// hangs it off the call): Copilot logs the call's start first.
func (e *encoder) startCall(call, agent string, t session.Time) {
	b, ok := e.calls[call]
	if !ok || e.started[call] || e.held != nil && e.held.call == call {
		return
	}
	e.started[call] = true
	var s jsonx.Obj
	if agent != "" {
		s.Str("parentToolCallId", agent)
	}
	s.Str("toolCallId", call).Str("toolName", b.ToolName)
	if len(b.Arguments) > 0 {
		s.Raw("arguments", b.Arguments)
	}
	e.event(evToolStart, e.ids.Of(call+"#start"), t, agent, s.Bytes())
}

// offPathRun reports whether en belongs to a run started by a tool call
// this log does not hold (one off the active path): Copilot CLI starts a
// run from a call in the conversation, and a subagent.started naming none
// is a dangling link. The adaptation drops such a run
// (Caps.RunsNeedKeptCall); one that reaches the writer is an error.
func (e *encoder) offPathRun(en *session.Entry) bool {
	if en.Kind == session.KindSubagent && en.Subagent != nil && en.Sidechain == "" {
		s := en.Subagent
		if _, ok := e.calls[s.ParentToolCallID]; s.ParentToolCallID == "" || ok {
			return false
		}
		e.untied[s.ID] = true
		return true
	}
	if en.Kind == session.KindSubagentEnd && en.Subagent != nil && e.untied[en.Subagent.ID] {
		return true
	}
	if en.Sidechain != "" && e.untied[en.Sidechain] {
		// the adaptation drops such a run (Caps.RunsNeedKeptCall)
		e.err = fmt.Errorf("entry %s: a sub-agent run started by a tool call this log does not hold", en.ID)
		return true
	}
	return false
}

// finish closes what the last entry left open.
func (e *encoder) finish() error {
	if r := e.open; r != nil {
		e.open = nil
		e.closeRun(r, session.Time{})
	}
	e.flushHeld()
	return e.err
}
