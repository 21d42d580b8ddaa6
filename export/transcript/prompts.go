package transcript

import (
	"strconv"
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

// Summary says what followed the prompt, as both exporters show it:
// "12 tool calls · 3m20s" (the time only when the entries are timed).
func (p PromptStat) Summary() string {
	s := strconv.Itoa(p.ToolCalls)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	s += " tool call"
	if p.ToolCalls != 1 {
		s += "s"
	}
	if p.Took > 0 {
		s += " · " + p.Took.Round(time.Second).String()
	}
	return s
}

// Prompts gives each user message of the path what followed it, by entry
// id (one without an id has none). A message of injected text only
// (Injected) is no prompt: what follows it counts for the prompt before.
// It reads only what a skeleton keeps
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
		if m != nil && m.Role == session.RoleUser && !Injected(m) {
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
