package ash

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// untiedRun says whether e belongs to a sub-agent run that no tool call
// started, and counts it lost: ash opens a sub-agent run with an
// agent_session line whose parent_tool_use_id must name a tool_use, so a
// run of another layout started by none (Claude Code's warm-up and
// compaction agents) has no place. The run's marker, its entries and its
// end are left out together, so no subagents/ file is opened for it.
func (w *writer) untiedRun(e *session.Entry) bool {
	if w.own {
		return false // ash's own runs are always a tool call's
	}
	switch {
	case e.Kind == session.KindSubagent && e.Subagent != nil && e.Subagent.ParentToolCallID == "":
		if w.untied == nil {
			w.untied = map[string]bool{}
		}
		w.untied[e.Subagent.ID] = true
	case e.Kind == session.KindSubagentEnd && e.Subagent != nil && w.untied[e.Subagent.ID]:
	case e.Sidechain != "" && w.untied[e.Sidechain]:
	default:
		return false
	}
	w.lost.Add(loss.Entry(e), loss.Dropped, "ash keeps a sub-agent run only as a tool call's (parent_tool_use_id); this run was started by none (a Claude Code warm-up or compaction agent)", 1)
	return true
}
