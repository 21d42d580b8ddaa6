package goat

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// MaxLine is the longest messages.jsonl line goat can read, newline not
// counted: its Store.Load scans the file with a bufio.Scanner whose
// buffer, line and newline together, is at most 10 MiB; a longer line
// fails with "token too long" and goat cannot open the session at all.
const MaxLine = 10<<20 - 1

// ruleLongLine is validate's finding for such a line.
const ruleLongLine = "line-too-long"

// fitMessage makes one messages.jsonl line fit MaxLine: with OptTruncate,
// its longest strings are cut (counted as lost), else the conversion is
// refused, naming the entry.
func (w *writer) fitMessage(e *session.Entry, b []byte) ([]byte, error) {
	if len(b) <= MaxLine {
		return b, nil
	}
	if !w.opt.Options.Bool(OptTruncate) {
		return nil, &exitcode.Error{Code: exitcode.Invalid, Err: fmt.Errorf(
			"entry %s is a message of %d bytes as a goat messages.jsonl line; goat reads lines of at most %d bytes (10 MiB) and could not open the session (--truncate-messages cuts it to fit, counted as lost)",
			e.ID, len(b), MaxLine)}
	}
	cut, _ := fitLine(b, MaxLine)
	if len(cut) > MaxLine {
		return nil, &exitcode.Error{Code: exitcode.Invalid, Err: fmt.Errorf(
			"entry %s: its message cannot be cut to goat's line limit of %d bytes", e.ID, MaxLine)}
	}
	w.opt.Loss.Add(loss.LongMessage, loss.Dropped, fmt.Sprintf("cut to goat's %d-byte line limit (--truncate-messages)", MaxLine), 1)
	return cut, nil
}

// truncMark ends a string fitLine cut.
const truncMark = "…[cut by sesstool to fit goat's line limit]"

// fitLine cuts the longest string values of the JSON line b (valid JSON,
// one line) until b is at most limit bytes, and returns it with the number
// of bytes taken out. A cut never splits an escape, a surrogate pair or a
// UTF-8 sequence.
func fitLine(b []byte, limit int) ([]byte, int) {
	removed := 0
	for len(b) > limit {
		start, end := longestString(b)
		if end-start <= len(truncMark)+2 {
			break // nothing left worth cutting
		}
		keep := max(0, (end-start)-(len(b)-limit)-len(truncMark))
		at := safeCut(b[start:end], keep)
		out := make([]byte, 0, len(b)-(end-start-at)+len(truncMark))
		out = append(out, b[:start+at]...)
		out = append(out, truncMark...)
		out = append(out, b[end:]...)
		removed += len(b) - len(out)
		b = out
	}
	return b, removed
}

// longestString returns the content bounds (inside the quotes) of the
// longest string value (not a member name) of the JSON text b.
func longestString(b []byte) (int, int) {
	bs, be := 0, 0
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if b[j] == '\\' {
				j++
			}
			j++
		}
		k := j + 1
		for k < len(b) && (b[k] == ' ' || b[k] == '\t') {
			k++
		}
		isKey := k < len(b) && b[k] == ':'
		if !isKey && j-(i+1) > be-bs {
			bs, be = i+1, j
		}
		i = j
	}
	return bs, be
}

// safeCut returns the largest n <= keep at which the raw JSON string s can
// be cut: not inside an escape, not inside a UTF-8 sequence.
func safeCut(s []byte, keep int) int {
	esc := -1 // start of the last escape before keep
	for i := 0; i < keep && i < len(s); i++ {
		if s[i] == '\\' {
			esc = i
			i++
			if i < len(s) && s[i] == 'u' {
				i += 4
			}
		}
	}
	n := min(keep, len(s))
	if esc >= 0 {
		end := esc + 2
		if esc+1 < len(s) && s[esc+1] == 'u' {
			end = esc + 6
		}
		if n < end {
			n = esc
		}
	}
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	// a high surrogate escape whose low half would be cut off
	if n >= 6 && s[n-6] == '\\' && s[n-5] == 'u' && (s[n-4] == 'd' || s[n-4] == 'D') && strings.ContainsRune("89abAB", rune(s[n-3])) {
		n -= 6
	}
	return n
}
