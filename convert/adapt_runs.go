package convert

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// untied reports whether e belongs to a sub-agent run that no tool call
// started, which the target drops (Caps.RunsNeedCall), and counts it: the
// run's marker, its entries and its end are left out together, so its
// writer opens no file for it.
func (a *adapted) untied(e *session.Entry) bool {
	if a.to.RunsNeedCall == "" {
		return false
	}
	switch {
	case e.Kind == session.KindSubagent && e.Subagent != nil && e.Subagent.ParentToolCallID == "":
		if a.untiedRuns == nil {
			a.untiedRuns = map[string]bool{}
		}
		a.untiedRuns[e.Subagent.ID] = true
	case e.Kind == session.KindSubagentEnd && e.Subagent != nil && a.untiedRuns[e.Subagent.ID]:
	case e.Sidechain != "" && a.untiedRuns[e.Sidechain]:
	default:
		return false
	}
	a.lost.Add(loss.Entry(e), loss.Dropped, a.to.RunsNeedCall, 1)
	return true
}

// offPathRun reports whether e belongs to a sub-agent run whose starting
// tool call was not kept before it (Caps.RunsNeedKeptCall: a run started
// from a call off the active path, which the target's start of a run
// would name dangling), and counts the run's entries dropped; the marker
// and the end that open and close it go with it uncounted. It notes the
// calls of every other message, the calls kept so far.
func (a *adapted) offPathRun(e *session.Entry) bool {
	if a.to.RunsNeedKeptCall == "" {
		return false
	}
	switch {
	case e.Kind == session.KindSubagent && e.Subagent != nil && e.Sidechain == "":
		id := e.Subagent.ParentToolCallID
		if id == "" || a.runCalls[id] {
			return false
		}
		if a.untiedRuns == nil {
			a.untiedRuns = map[string]bool{}
		}
		a.untiedRuns[e.Subagent.ID] = true
		return true
	case e.Kind == session.KindSubagentEnd && e.Subagent != nil && a.untiedRuns[e.Subagent.ID]:
		return true
	case e.Sidechain != "" && a.untiedRuns[e.Sidechain]:
		a.lost.Add(loss.Sidechain, loss.Dropped, a.to.RunsNeedKeptCall, 1)
		return true
	case e.Message != nil:
		for _, b := range e.Message.Content {
			if b.Type == session.BlockToolCall {
				if a.runCalls == nil {
					a.runCalls = map[string]bool{}
				}
				a.runCalls[b.ToolCallID] = true
			}
		}
	}
	return false
}
