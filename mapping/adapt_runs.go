package mapping

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
