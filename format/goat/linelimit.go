package goat

import (
	"fmt"
	"time"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/session"
)

// MaxLine is the longest messages.jsonl line goat can read, newline not
// counted: its Store.Load scans the file with a bufio.Scanner whose
// buffer, line and newline together, is at most 10 MiB; a longer line
// fails with "token too long" and goat cannot open the session at all.
const MaxLine = 10<<20 - 1

// ruleLongLine is validate's finding for such a line.
const ruleLongLine = "line-too-long"

// fitMessage refuses a messages.jsonl line longer than MaxLine, naming
// the entry: goat could not open the session. With convert
// --truncate-messages the adaptation cut the message's text to fit
// (Caps.MessageLimit); a message still too long has its bulk elsewhere.
func (w *writer) fitMessage(e *session.Entry, b []byte) ([]byte, error) {
	if len(b) <= MaxLine {
		return b, nil
	}
	return nil, &exitcode.Error{Code: exitcode.Invalid, Err: fmt.Errorf(
		"entry %s is a message of %d bytes as a goat messages.jsonl line; goat reads lines of at most %d bytes (10 MiB) and could not open the session (--truncate-messages cuts its text to fit, counted as lost)",
		e.ID, len(b), MaxLine)}
}

// lineLimit is goat's MaxLine as the adaptation cuts a message to it.
var lineLimit = &format.Limit{Max: MaxLine, Size: longestLine, Mark: truncMark,
	Why: fmt.Sprintf("cut to goat's %d-byte line limit (--truncate-messages)", MaxLine), CutWith: OptTruncate}

// truncMark ends a text cut to fit.
const truncMark = "…[cut by sesstool to fit goat's line limit]"

// longestTime is the longest time Write spells (RFC 3339 with
// nanoseconds and an offset), and longestLine measures lines with it.
var longestTime = session.Time{T: time.Date(2006, 1, 2, 15, 4, 5, 999999999, time.FixedZone("", 7*3600))}

// longestLine is the bytes of the longest messages.jsonl line Write makes
// of message entry e of another layout, whatever the time and id it is
// written with: each tool_result block of a user message is a tool
// message of its own.
func longestLine(e *session.Entry) int {
	src, n := e.Message, 0
	line := func(m *session.Message) {
		n = max(n, len(encodeLine(&session.Entry{Time: longestTime, Message: m}, spell.UUID(""), false)))
	}
	if src.Role == session.RoleUser {
		var rest []session.Block
		for _, b := range src.Content {
			if b.Type == session.BlockToolResult {
				line(resultMessage(b))
			} else {
				rest = append(rest, b)
			}
		}
		if len(rest) == 0 && len(src.Content) > 0 {
			return n
		}
		c := *src
		c.Content = rest
		src = &c
	}
	if m, err := foreignMessage(src); err == nil {
		line(m)
	}
	return n
}
