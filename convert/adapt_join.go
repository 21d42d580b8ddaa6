package convert

import (
	"errors"
	"io"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// heldTurn is an assistant message of another layout whose tool calls wait
// for their results (Caps.TurnJoinsWhy), with the messages joined to it
// and the results gathered so far.
type heldTurn struct {
	e       *session.Entry
	open    map[string]bool // its calls not answered yet
	results []*session.Entry
}

// joinNext is the next entry adapted, where the target answers a turn's
// calls right after the turn (Caps.TurnJoinsWhy: Qwen Code, as the APIs
// it speaks, fills in a failure for a call it finds unanswered there):
// while a turn has calls unanswered, an assistant message among its
// results is joined to it, counted converted, and a result of one of its
// calls waits with it; the turn is given, then its results, once every
// call is answered or another entry comes. Claude Code records a reply's
// blocks on lines of their own, with results between them.
func (a *adapted) joinNext() (*session.Entry, error) {
	if a.to.TurnJoinsWhy == "" {
		return a.next()
	}
	for {
		if len(a.joined) > 0 {
			e := a.joined[0]
			a.joined = a.joined[1:]
			return e, nil
		}
		e, err := a.next()
		if err != nil {
			if errors.Is(err, io.EOF) && a.turn != nil {
				a.giveTurn()
				continue
			}
			return nil, err
		}
		if a.turn != nil && a.takes(e) {
			if len(a.turn.open) == 0 {
				a.giveTurn()
			}
			continue
		}
		a.giveTurn()
		if t := opensTurn(e); t != nil {
			a.turn = t
			continue
		}
		a.joined = append(a.joined, e)
	}
}

// opensTurn is the turn an assistant message that calls tools opens; nil
// for any other entry.
func opensTurn(e *session.Entry) *heldTurn {
	m := e.Message
	if m == nil || m.Role != session.RoleAssistant {
		return nil
	}
	t := &heldTurn{e: e, open: map[string]bool{}}
	t.opens(m)
	if len(t.open) == 0 {
		return nil
	}
	return t
}

func (t *heldTurn) opens(m *session.Message) {
	for _, b := range m.Content {
		if b.Type == session.BlockToolCall {
			t.open[b.ToolCallID] = true
		}
	}
}

// takes reports whether e joins the held turn or waits with it.
func (a *adapted) takes(e *session.Entry) bool {
	t := a.turn
	m := e.Message
	if e.Kind != session.KindMessage || m == nil || e.Sidechain != t.e.Sidechain {
		return false
	}
	switch {
	case m.Role == session.RoleAssistant && len(t.open) > 0:
		joined := *t.e.Message
		joined.Content = append(append([]session.Block(nil), joined.Content...), m.Content...)
		if joined.Usage == nil {
			joined.Usage = m.Usage
		}
		c := *t.e
		c.Message = &joined
		t.e = &c
		t.opens(m)
		a.lost.Add(loss.ToolCall, loss.Converted, a.to.TurnJoinsWhy, 1)
		return true
	case m.Role == session.RoleTool && t.open[m.ToolCallID]:
		delete(t.open, m.ToolCallID)
		t.results = append(t.results, e)
		return true
	}
	return false
}

// giveTurn queues the held turn and the results that waited with it.
func (a *adapted) giveTurn() {
	if t := a.turn; t != nil {
		a.joined = append(append(a.joined, t.e), t.results...)
		a.turn = nil
	}
}
