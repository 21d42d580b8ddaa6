package transcript

import (
	"time"

	"github.com/sesstool/sesstool/session"
)

// PromptStat is what followed a prompt on the shown path, up to the next
// one: how many tool calls the agent made and how long it worked (from the
// prompt's time to the last entry's before the next prompt; 0 when the
// entries are not timed).
type PromptStat struct {
	ToolCalls int
	Took      time.Duration
}

// Prompts gives each user message of the path what followed it, by entry
// id (one without an id has none). It reads only what a skeleton keeps
// (times, roles, tool calls), so the streamed Markdown has it too, for the
// entries it reads again.
func (t *Transcript) Prompts() map[string]PromptStat {
	out := map[string]PromptStat{}
	var cur *session.Entry
	var st PromptStat
	var last time.Time
	end := func() {
		if cur != nil {
			if start := cur.Time.T; !start.IsZero() && last.After(start) {
				st.Took = last.Sub(start)
			}
			if cur.ID != "" {
				out[cur.ID] = st
			}
		}
	}
	for _, e := range t.Path {
		m := e.Message
		if m != nil && m.Role == session.RoleUser {
			end()
			cur, st, last = e, PromptStat{}, e.Time.T
			continue
		}
		if m != nil {
			for _, b := range m.Content {
				if b.Type == session.BlockToolCall {
					st.ToolCalls++
				}
			}
		}
		if !e.Time.T.IsZero() && !session.IsBookkeeping(e) {
			last = e.Time.T
		}
	}
	end()
	return out
}

// Duration is the time from the session's first timed entry to its last.
func (t *Transcript) Duration() time.Duration {
	var first, last time.Time
	for _, e := range t.S.Entries {
		if tm := e.Time.T; !tm.IsZero() {
			if first.IsZero() || tm.Before(first) {
				first = tm
			}
			if tm.After(last) {
				last = tm
			}
		}
	}
	return last.Sub(first)
}
