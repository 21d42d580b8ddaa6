package convert

import (
	"errors"
	"io"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// Next is the next entry the writer is given. The rules that depend on
// what the writer met before an entry (the entry a compaction follows, the
// time an entry without one is written with), or on all it met
// (ResultsInCall), apply here, in the order the writer meets the entries,
// which is not always the order they were adapted in (a tree target's last
// path entry is held back: tree).
func (a *adapted) Next() (*session.Entry, error) {
	e, err := a.answered()
	if errors.Is(err, io.EOF) {
		a.resultsWithoutCall()
	}
	if err != nil {
		return nil, err
	}
	e = a.messageTime(a.firstKeptNamed(e))
	a.nGiven++
	a.noteResults(e)
	return e, nil
}

// noteResults notes the tool results and calls of e, as given, where the
// target writes a result into its call's part (Caps.ResultsInCall): a tool
// message, or a result block of any message, is a result; a call counts
// in a message written as one (not a tool's result, nor one of results
// only).
func (a *adapted) noteResults(e *session.Entry) {
	m := e.Message
	if a.to.ResultsInCall == nil || m == nil {
		return
	}
	if a.results == nil {
		a.results, a.inCalls = map[string]int{}, map[string]bool{}
	}
	if m.Role == session.RoleTool {
		a.results[m.ToolCallID]++
		return
	}
	for _, b := range m.Content {
		if b.Type == session.BlockToolResult {
			a.results[b.ToolCallID]++
		}
	}
	if isResults(m) {
		return
	}
	for _, b := range m.Content {
		if b.Type == session.BlockToolCall {
			a.inCalls[b.ToolCallID] = true
		}
	}
}

// resultsWithoutCall counts, once the session has been given whole, the
// tool results that have no place in a call's part (Caps.ResultsInCall):
// each of a call id no call names, and each but the first of one that is
// named.
func (a *adapted) resultsWithoutCall() {
	r := a.to.ResultsInCall
	if r == nil || a.resultsCounted {
		return
	}
	a.resultsCounted = true
	n := 0
	for id, k := range a.results {
		if a.inCalls[id] {
			k--
		}
		n += k
	}
	a.lost.Add(loss.ToolResult, r.Action, r.Why, n)
}
