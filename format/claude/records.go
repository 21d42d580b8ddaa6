package claude

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/sesstool/sesstool/session"
)

// Claude Code's records that are not the conversation (session/records.go):
// hook and tool progress, file-history snapshots, the prompt queue, the
// last prompt typed, the title line older versions ended a session with
// ("summary", naming the leaf), and 2.1.332's request and cost bookkeeping.
func init() {
	session.DeclareBookkeeping(Name, "progress", "file-history-snapshot", "queue-operation", "last-prompt", "summary",
		"atis-latch", "api-request*", "tools-used", "cost-state")
	session.DeclareNote(Name, "system", systemNote)
	// Claude Code compacts a conversation with a sub-agent of its own,
	// agent-acompact-*, which no tool call starts
	session.DeclareCompactionRun(Name, func(s session.Subagent) bool { return strings.HasPrefix(s.ID, agentPrefix+"acompact-") })
}

// systemNote is the line a system record is shown as: a compaction's
// boundary, a turn's duration, the stop hooks' verdict. Other system
// records ("" here) are shown as they are.
func systemNote(c session.Custom) string {
	var v struct {
		Subtype    string `json:"subtype"`
		DurationMs *int64 `json:"durationMs"`
		Compact    *struct {
			Trigger   string `json:"trigger"`
			PreTokens int64  `json:"preTokens"`
		} `json:"compactMetadata"`
		HookCount  int               `json:"hookCount"`
		HookErrors []json.RawMessage `json:"hookErrors"`
		Prevented  bool              `json:"preventedContinuation"`
		StopReason string            `json:"stopReason"`
	}
	if json.Unmarshal(c.Data, &v) != nil {
		return ""
	}
	switch v.Subtype {
	case "compact_boundary":
		s := "context compacted"
		if m := v.Compact; m != nil {
			var parts []string
			if m.Trigger != "" {
				parts = append(parts, m.Trigger)
			}
			if m.PreTokens > 0 {
				parts = append(parts, thousands(m.PreTokens)+" tokens before")
			}
			if len(parts) > 0 {
				s += " (" + strings.Join(parts, ", ") + ")"
			}
		}
		return s
	case "turn_duration":
		if v.DurationMs != nil {
			return "turn took " + (time.Duration(*v.DurationMs) * time.Millisecond).Round(time.Second).String()
		}
	case "stop_hook_summary":
		s := fmt.Sprintf("stop hooks: %d ran", v.HookCount)
		if n := len(v.HookErrors); n > 0 {
			s += fmt.Sprintf(", %d failed", n)
		}
		if v.Prevented {
			s += ", continued the turn"
			if v.StopReason != "" {
				s += ": " + v.StopReason
			}
		}
		return s
	}
	return ""
}

// thousands writes n with comma separators.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
