package mapping

import "github.com/sesstool/sesstool/session"

// compactionAsUser gives a compaction of another layout the user message
// of its summary where the target keeps one as such (Caps.
// CompactionAsUser): the model reads the summary from it when the session
// is resumed. The entry keeps its kind, so that its writer can mark the
// line as a summary (Claude Code's and Qwen Code's isCompactSummary); a
// compaction with no summary has been dropped by lines.
func (a *adapted) compactionAsUser(e *session.Entry) *session.Entry {
	if !a.to.CompactionAsUser || e.Kind != session.KindCompaction || e.Compaction == nil {
		return e
	}
	c := *e
	c.Message = &session.Message{Role: session.RoleUser, ContentIsString: true,
		Content: []session.Block{{Type: session.BlockText, Text: e.Compaction.Summary}}}
	return &c
}
