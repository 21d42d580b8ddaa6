// Package selection chooses sessions by what they record: the project
// (the working directory the agent ran in), when they started, and what
// their prompts and titles say. Every command that goes through the
// pipeline takes the same flags (--cwd, --since, --until, --match) and
// applies them through Filter.
package selection

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

// Filter is a selection; the zero Filter keeps every session.
type Filter struct {
	// Cwd keeps the sessions recorded in this directory or under it
	// (cleaned, absolute).
	Cwd string
	// Since and Until bound the session's start, both inclusive; zero is
	// unbounded.
	Since, Until time.Time
	// Match keeps the sessions whose title or a prompt holds it, case
	// folded ("" keeps all).
	Match string
}

// New builds a filter from the flags' text. cwd is made absolute against
// the current directory, so `--cwd .` is the project one is in. A date
// that is neither YYYY-MM-DD nor RFC 3339 is an error naming the flag.
func New(cwd, since, until, match string) (Filter, error) {
	var f Filter
	if cwd != "" {
		abs, err := filepath.Abs(cwd)
		if err != nil {
			return f, fmt.Errorf("--cwd %q: %w", cwd, err)
		}
		f.Cwd = abs
	}
	var err error
	if f.Since, err = ParseDate(since, false); err != nil {
		return f, fmt.Errorf("--since: %w", err)
	}
	if f.Until, err = ParseDate(until, true); err != nil {
		return f, fmt.Errorf("--until: %w", err)
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && f.Until.Before(f.Since) {
		return f, fmt.Errorf("--until %s is before --since %s", until, since)
	}
	f.Match = strings.ToLower(match)
	return f, nil
}

// ParseDate reads a flag's date. YYYY-MM-DD is a day in the local time
// zone (TZ): its first instant, or, for the end of a range (end), its
// last, so --until 2026-11-23 includes that whole day. RFC 3339 is the
// instant it names, in its own zone. "" is the zero time (unbounded).
func ParseDate(s string, end bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		if end {
			t = t.AddDate(0, 0, 1).Add(-time.Nanosecond)
		}
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is not a date (YYYY-MM-DD or RFC 3339, e.g. 2026-11-23 or 2026-11-23T09:00:00Z)", s)
}

// Active reports whether f leaves any session out.
func (f Filter) Active() bool {
	return f.Cwd != "" || !f.Since.IsZero() || !f.Until.IsZero() || f.Match != ""
}

// InProject reports whether a session recorded in cwd belongs to f's
// project: the directory itself or one under it. A session that records
// no working directory belongs to none.
func (f Filter) InProject(cwd string) bool {
	if f.Cwd == "" {
		return true
	}
	if cwd == "" {
		return false
	}
	c := filepath.Clean(cwd)
	return c == f.Cwd || strings.HasPrefix(c, strings.TrimSuffix(f.Cwd, string(filepath.Separator))+string(filepath.Separator))
}

// InRange reports whether a session that started at start is within the
// dates; one with no recorded time is outside any bound.
func (f Filter) InRange(start time.Time) bool {
	if f.Since.IsZero() && f.Until.IsZero() {
		return true
	}
	if start.IsZero() {
		return false
	}
	return !start.Before(f.Since) && (f.Until.IsZero() || !start.After(f.Until))
}

// Keep reads as much of the session as the filter needs and reports
// whether it is selected; r is closed. The header answers --cwd (and the
// dates, when it records a start), so a session of another project is
// not read further; --match reads prompts until one matches.
func (f Filter) Keep(r session.Reader) (bool, error) {
	defer r.Close()
	c := f.Begin(r.Meta())
	for !c.Decided() {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return false, err
		}
		c.Entry(e)
	}
	return c.Kept(), nil
}

// Check is the filter applied to one session as it is read, for a
// command that reads the session anyway (list, info): Begin with its
// header, Entry with each entry, then Kept.
type Check struct {
	f       Filter
	out     bool // the session is known to be left out
	dated   bool // the dates are settled (the start is known, or no bound)
	matched bool // --match is settled
	start   time.Time
}

// Begin starts checking a session from its header.
func (f Filter) Begin(m *session.Meta) *Check {
	c := &Check{f: f, dated: f.Since.IsZero() && f.Until.IsZero(), start: m.Created.T}
	c.matched = f.Match == "" || strings.Contains(strings.ToLower(m.Title), f.Match)
	if !f.InProject(m.Cwd) {
		c.out = true
	}
	if !c.start.IsZero() && !c.dated {
		c.out = c.out || !f.InRange(c.start)
		c.dated = true
	}
	return c
}

// Decided reports whether more entries cannot change the verdict.
func (c *Check) Decided() bool { return c.out || c.dated && c.matched }

// Entry takes the next entry into account.
func (c *Check) Entry(e *session.Entry) {
	if c.out {
		return
	}
	if !c.dated && !e.Time.T.IsZero() {
		c.out = !c.f.InRange(e.Time.T)
		c.dated = true
	}
	if !c.matched && c.f.matches(e) {
		c.matched = true
	}
}

// Kept is the verdict once the session is read (or Decided).
func (c *Check) Kept() bool { return !c.out && c.dated && c.matched }

// matches reports whether an entry is a prompt or a title holding Match.
// A prompt is what the user wrote, not the text the agent put in a user
// message (transcript.PromptText).
func (f Filter) matches(e *session.Entry) bool {
	if e.Kind == session.KindSessionInfo && strings.Contains(strings.ToLower(e.Title), f.Match) {
		return true
	}
	if m := e.Message; m != nil && m.Role == session.RoleUser {
		return strings.Contains(strings.ToLower(transcript.PromptText(m.Text())), f.Match)
	}
	return false
}

// String spells the filter as its flags, for messages.
func (f Filter) String() string {
	var parts []string
	if f.Cwd != "" {
		parts = append(parts, "--cwd "+f.Cwd)
	}
	if !f.Since.IsZero() {
		parts = append(parts, "--since "+f.Since.Format(time.RFC3339))
	}
	if !f.Until.IsZero() {
		parts = append(parts, "--until "+f.Until.Format(time.RFC3339))
	}
	if f.Match != "" {
		parts = append(parts, fmt.Sprintf("--match %q", f.Match))
	}
	return strings.Join(parts, " ")
}
