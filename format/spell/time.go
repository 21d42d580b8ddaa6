package spell

import (
	"fmt"
	"time"

	"github.com/sesstool/sesstool/session"
)

// ISO spells t as JavaScript's Date.toISOString does (tree, goat): UTC,
// milliseconds, Z.
func ISO(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// PyTime spells t as Python's datetime.isoformat() does for an aware UTC
// time (ash): microseconds only when non-zero, "+00:00" instead of "Z".
func PyTime(t time.Time) string {
	t = t.UTC()
	s := t.Format("2006-01-02T15:04:05")
	if us := t.Nanosecond() / 1000; us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	return s + "+00:00"
}

// Clock hands out entry times for a writer: an entry without a time takes
// the previous entry's, the first one the session's creation time.
type Clock struct {
	last  session.Time
	calls map[string]session.Time // tool call id -> its message's time
}

// Start sets the time used before any entry has one.
func (c *Clock) Start(t session.Time) { c.last = t }

// At returns t, or the last time seen when t is unset.
func (c *Clock) At(t session.Time) session.Time {
	if t.T.IsZero() {
		return c.last
	}
	c.last = t
	return t
}

// Entry is the time e is written with: its own, else its message's, else,
// for a tool result, its call's (ash keeps no time on a result), else the
// previous entry's (At). Writers that must spell a time for every entry use
// it, so none writes the zero time while the session has one.
func (c *Clock) Entry(e *session.Entry) session.Time {
	t, m := e.Time, e.Message
	if t.T.IsZero() && m != nil {
		t = m.Time
	}
	if t.T.IsZero() && m != nil && m.Role == session.RoleTool {
		t = c.calls[m.ToolCallID]
	}
	t = c.At(t)
	if m != nil && !t.T.IsZero() {
		for _, b := range m.Content {
			if b.Type == session.BlockToolCall {
				if c.calls == nil {
					c.calls = map[string]session.Time{}
				}
				c.calls[b.ToolCallID] = t
			}
		}
	}
	return t
}
