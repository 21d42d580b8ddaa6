package convert

import (
	"strconv"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// The times a target can hold, as it declares them: only after 1970
// (Caps.TimesAfter1970), and never going back from one message to the
// next (Caps.TimesForward).

// before1970 reports whether t is set but not after 1970 (or not read as
// a time at all): a time a target of Unix milliseconds cannot hold.
func before1970(t session.Time) bool { return !t.IsZero() && t.UnixMilli() <= 0 }

// metaTimes is m with the session's times the target cannot hold unset,
// each counted: its writer spells a missing one as the session's first.
func metaTimes(m *session.Meta, reason string, lost *loss.Counter) *session.Meta {
	if reason == "" || !before1970(m.Created) && !before1970(m.Updated) {
		return m
	}
	c := *m
	for _, t := range []*session.Time{&c.Created, &c.Updated} {
		if before1970(*t) {
			lost.Add(loss.Time, loss.Converted, reason, 1)
			*t = session.Time{}
		}
	}
	return &c
}

// times is e with a time the target cannot hold unset, which its writer
// spells as the time before it (Caps.TimesAfter1970), and, for an entry
// the target writes as a message, a time before the last message's
// raised to it (Caps.TimesForward); each counted.
func (a *adapted) times(e *session.Entry) *session.Entry {
	if a.to.TimesAfter1970 != "" && before1970(e.Time) {
		a.lost.Add(loss.Time, loss.Converted, a.to.TimesAfter1970, 1)
		c := *e
		c.Time = session.Time{}
		e = &c
	}
	if a.to.TimesForward == "" || e.Time.IsZero() || e.Message != nil && isResults(e.Message) {
		return e
	}
	if ms := e.Time.UnixMilli(); ms < a.lastMS {
		a.lost.Add(loss.Time, loss.Converted, a.to.TimesForward, 1)
		c := *e
		c.Time = a.lastTime
		return &c
	}
	a.lastMS, a.lastTime = e.Time.UnixMilli(), e.Time
	return e
}

// isResults reports whether m is a tool's result, or holds nothing but
// tool results (ash's user message of tool_result blocks): no message of
// its own in a target that carries results in their calls.
func isResults(m *session.Message) bool {
	if m.Role == session.RoleTool {
		return true
	}
	if len(m.Content) == 0 {
		return false
	}
	for _, b := range m.Content {
		if b.Type != session.BlockToolResult {
			return false
		}
	}
	return true
}

// messageTime is e with a message time the target cannot hold
// (Caps.MessageTimeAsEntry, MessageTimeLeftOut): one not after 1970 takes
// the time its writer gives the entry (spell.Clock, run here over the
// entries as the writer meets them), counted converted; when that is not
// after 1970 either, the message keeps none, counted dropped, and the
// entry keeps the time it would have taken from the message. A message
// without a time of its own whose entry's time is not after 1970 is
// counted dropped too: the time its writer would give it cannot be.
func (a *adapted) messageTime(e *session.Entry) *session.Entry {
	if a.to.MessageTimeAsEntry == "" || a.to.Owns(e.Origin) {
		return e
	}
	at := a.clock.Entry(e)
	m := e.Message
	if e.Kind != session.KindMessage || m == nil || after1970(m.Time) {
		return e
	}
	entry := session.Time{T: at.T}
	if after1970(entry) {
		if !notAfter1970(m.Time) {
			return e // none of its own: its writer gives it the entry's
		}
		a.lost.Add(loss.Time, loss.Converted, a.to.MessageTimeAsEntry, 1)
		return withMessageTime(e, entry)
	}
	if !notAfter1970(m.Time) && !notAfter1970(entry) {
		return e
	}
	a.lost.Drop(loss.Time, a.to.MessageTimeLeftOut, 1)
	if m.Time.IsZero() {
		return e
	}
	c := withMessageTime(e, session.Time{})
	if e.Time.T.IsZero() {
		c.Time = m.Time // the entry's time, as the writer took it from the message
	}
	return c
}

// withMessageTime is e with its message's time t.
func withMessageTime(e *session.Entry, t session.Time) *session.Entry {
	c, cm := *e, *e.Message
	cm.Time = t
	c.Message = &cm
	return &c
}

// after1970 reports whether t is a time in milliseconds after 1970, as a
// message time of Unix milliseconds spells it: a raw integer not below
// zero, else a set time not before 1970.
func after1970(t session.Time) bool {
	if n, err := strconv.ParseInt(t.Raw, 10, 64); t.Raw != "" && err == nil {
		return n >= 0
	}
	return !t.T.IsZero() && t.T.UnixMilli() >= 0
}

// notAfter1970 reports whether t is set and before 1970, by its raw
// integer when it has one.
func notAfter1970(t session.Time) bool {
	if n, err := strconv.ParseInt(t.Raw, 10, 64); err == nil {
		return n < 0
	}
	return !t.T.IsZero() && t.T.UnixMilli() < 0
}
