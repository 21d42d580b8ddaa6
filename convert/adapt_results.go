package convert

import (
	"errors"
	"io"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// NoResult is the result a tool call of another layout that has none in
// the session is answered with (Caps.CallsNeedResults).
const NoResult = "(no result is recorded for this call in the session it was converted from)"

// answers keeps a target's rule that every tool call has its result
// (Caps.CallsNeedResults): the APIs the agent sends a session back to
// refuse a call without one, and a Codex web search (run on the
// provider's side) or a call cut off has none. It watches each chain
// (the main conversation and each sub-agent run) in the order the writer
// is given the entries; when a chain's open calls are closed with some
// still unanswered, a result saying so (NoResult) is given before the entry
// that closed them, counted converted, and what hung from the last entry
// of the turn hangs from it. The calls of an assistant message are open
// until:
//   - a message other than a tool result (CallsWaitInTurn: other than an
//     assistant message, which joins the turn, or a result of one of its
//     calls), or the end of the session;
//   - a user message answers those of its tool_result blocks.
//
// The answer is one user message of tool_result blocks where the target
// keeps them on user messages (the Messages API's next user turn), else a
// tool message per call, an error.
type answers struct {
	open  map[string]*openCalls // by sidechain
	order []string              // the sidechains with open calls, first opened first
}

type openCalls struct {
	ids   []string
	names map[string]string // call id -> tool name
	last  string            // the entry the answer hangs from: the call's message or its last result
	time  session.Time
}

// answered is the next entry of the adapted session, the answers to open
// calls given before the entry that closes them and at the end.
func (a *adapted) answered() (*session.Entry, error) {
	for len(a.queue) == 0 {
		e, err := a.joinNext()
		if !a.to.CallsNeedResults {
			return e, err
		}
		if errors.Is(err, io.EOF) {
			if a.queue = a.answerAll(); len(a.queue) == 0 {
				return nil, err
			}
			break
		}
		if err != nil {
			return nil, err
		}
		a.queue = a.calls(e)
	}
	e := a.queue[0]
	a.queue = a.queue[1:]
	return e, nil
}

// calls notes e's calls and results, and gives the entries to write for it:
// the answers to the calls it closes, then e.
func (a *adapted) calls(e *session.Entry) []*session.Entry {
	m := e.Message
	if m == nil {
		return []*session.Entry{e}
	}
	side := e.Sidechain
	var out []*session.Entry
	if oc := a.answers.open[side]; oc != nil {
		switch {
		case m.Role == session.RoleTool && m.ToolCallID != "" && (!a.to.CallsWaitInTurn || oc.has(m.ToolCallID)):
			oc.answer(m.ToolCallID)
			oc.last, oc.time = e.ID, e.Time
			return []*session.Entry{e}
		case a.to.CallsWaitInTurn && m.Role == session.RoleAssistant && len(oc.ids) > 0:
			oc.add(e)
			return []*session.Entry{e}
		}
		for _, b := range m.Content {
			if b.Type == session.BlockToolResult {
				oc.answer(b.ToolCallID)
			}
		}
		a.answers.close(side)
		if ans := a.answer(side, oc); ans != nil {
			if e.ParentID == oc.last {
				c := *e
				c.ParentID = ans[0].ID
				e = &c
			}
			out = ans
		}
	}
	if m.Role == session.RoleAssistant {
		oc := &openCalls{}
		if oc.add(e); len(oc.ids) > 0 {
			a.answers.opened(side, oc)
		}
	}
	return append(out, e)
}

// answerAll answers the calls left open when the session ends.
func (a *adapted) answerAll() []*session.Entry {
	var out []*session.Entry
	for _, side := range a.answers.order {
		oc := a.answers.open[side]
		delete(a.answers.open, side)
		out = append(out, a.answer(side, oc)...)
	}
	a.answers.order = nil
	return out
}

// answer is what answers oc's calls left unanswered, counted; nil for none.
func (a *adapted) answer(side string, oc *openCalls) []*session.Entry {
	if len(oc.ids) == 0 {
		return nil
	}
	why := a.to.CallsNeedResultsWhy
	if why == "" {
		why = "a tool call with no result in the session is answered by a result saying so: " + a.layout + " refuses a call without one"
	}
	a.lost.Add(loss.Block(session.BlockToolCall), loss.Converted, why, len(oc.ids))
	var out []*session.Entry
	if a.to.HoldsBlock(session.BlockToolResult) {
		blocks := make([]session.Block, len(oc.ids))
		for i, id := range oc.ids {
			blocks[i] = session.Block{Type: session.BlockToolResult, ToolCallID: id, Text: NoResult}
		}
		out = append(out, &session.Entry{ID: "sesstool-no-result:" + oc.ids[0], ParentID: oc.last, Kind: session.KindMessage, Sidechain: side, Time: oc.time,
			Message: &session.Message{Role: session.RoleUser, Content: blocks}})
	} else {
		parent := oc.last
		for _, id := range oc.ids {
			e := &session.Entry{ID: "sesstool-no-result:" + id, ParentID: parent, Kind: session.KindMessage, Sidechain: side,
				Message: &session.Message{Role: session.RoleTool, ToolCallID: id, ToolName: oc.names[id], IsError: true,
					Content: []session.Block{{Type: session.BlockText, Text: NoResult}}}}
			out = append(out, e)
			parent = e.ID
		}
	}
	// what hung from the turn's last entry hangs from its answer
	if a.up == nil {
		a.up = map[string]string{}
	}
	a.up[oc.last] = out[len(out)-1].ID
	return out
}

func (s *answers) opened(side string, oc *openCalls) {
	if s.open == nil {
		s.open = map[string]*openCalls{}
	}
	if _, ok := s.open[side]; !ok {
		s.order = append(s.order, side)
	}
	s.open[side] = oc
}

func (s *answers) close(side string) {
	delete(s.open, side)
	for i, x := range s.order {
		if x == side {
			s.order = append(s.order[:i], s.order[i+1:]...)
			return
		}
	}
}

// add opens the calls of the assistant message e.
func (oc *openCalls) add(e *session.Entry) {
	for _, b := range e.Message.Content {
		if b.Type == session.BlockToolCall {
			oc.ids = append(oc.ids, b.ToolCallID)
			if oc.names == nil {
				oc.names = map[string]string{}
			}
			oc.names[b.ToolCallID] = b.ToolName
		}
	}
	oc.last, oc.time = e.ID, e.Time
}

func (oc *openCalls) has(id string) bool {
	for _, x := range oc.ids {
		if x == id {
			return true
		}
	}
	return false
}

func (oc *openCalls) answer(id string) {
	for i, x := range oc.ids {
		if x == id {
			oc.ids = append(oc.ids[:i], oc.ids[i+1:]...)
			return
		}
	}
}
