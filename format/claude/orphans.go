package claude

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// NoResult is the result written for a tool call of another layout that
// has none in the session.
const NoResult = "(no result is recorded for this call in the session it was converted from)"

// openCalls are the tool calls of the last assistant message written on a
// chain that no result has answered yet.
type openCalls struct {
	ids  []string
	last string // the entry the next line hangs from: the call's message or its last result
	time session.Time
}

// answerCalls keeps the Messages API's rule in a session from another
// layout: every tool_use has its tool_result in the next user message.
// Claude Code drops an assistant message whose tool_use has none (text
// and all) when it resumes, and the API refuses the request if it did
// not; a Codex web search, run on the provider's side, has no result
// item. So before e, when e is not a result of the open calls, a user
// line answers each one left with NoResult, named as a loss; e and
// whatever hung from the last answered line hang from it. An assistant
// e opens its own calls.
func (w *writer) answerCalls(e *session.Entry) error {
	side, m := e.Sidechain, e.Message
	if oc := w.unanswered[side]; oc != nil {
		if m.Role == session.RoleTool && m.ToolCallID != "" {
			oc.answer(m.ToolCallID)
			oc.last, oc.time = e.ID, e.Time
			return nil
		}
		for _, b := range m.Content {
			if b.Type == session.BlockToolResult {
				oc.answer(b.ToolCallID)
			}
		}
		delete(w.unanswered, side)
		if len(oc.ids) > 0 {
			if err := w.writeNoResults(side, oc); err != nil {
				return err
			}
		}
	}
	if m.Role == session.RoleAssistant {
		var ids []string
		for _, b := range namedCalls(e.ID, m.Content) { // the ids as written
			if b.Type == session.BlockToolCall {
				ids = append(ids, b.ToolCallID)
			}
		}
		if len(ids) > 0 {
			if w.unanswered == nil {
				w.unanswered = map[string]*openCalls{}
			}
			w.unanswered[side] = &openCalls{ids: ids, last: e.ID, time: e.Time}
		}
	}
	return nil
}

// answerAll answers the calls left open when the session ends: Claude Code
// would drop their message on resuming.
func (w *writer) answerAll() error {
	for side, oc := range w.unanswered {
		delete(w.unanswered, side)
		if len(oc.ids) > 0 {
			if err := w.writeNoResults(side, oc); err != nil {
				return err
			}
		}
	}
	return nil
}

func (oc *openCalls) answer(id string) {
	for i, x := range oc.ids {
		if x == id {
			oc.ids = append(oc.ids[:i], oc.ids[i+1:]...)
			return
		}
	}
}

// writeNoResults writes the user line answering oc's calls.
func (w *writer) writeNoResults(side string, oc *openCalls) error {
	blocks := make([]session.Block, len(oc.ids))
	for i, id := range oc.ids {
		blocks[i] = session.Block{Type: session.BlockToolResult, ToolCallID: id, Text: NoResult}
	}
	e := &session.Entry{ID: "sesstool-no-result:" + oc.ids[0], ParentID: oc.last, Kind: session.KindMessage, Sidechain: side, Time: oc.time,
		Message: &session.Message{Role: session.RoleUser, Content: blocks}}
	l := w.newLine(e)
	if w.up == nil {
		w.up = map[string]string{}
	}
	w.up[oc.last] = e.ID // what hung from the last answered line hangs from this one
	w.opt.Loss.Add(loss.Block(session.BlockToolCall), loss.Converted, "a tool call with no result in the session (a search the provider ran, or one cut off) is answered by a result saying so: the Anthropic API refuses a tool_use without its tool_result, and Claude Code drops the message holding it", len(oc.ids))
	return w.emit(side, encodeMessage(e, l, blocks, false))
}
