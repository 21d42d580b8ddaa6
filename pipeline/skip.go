package pipeline

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
)

// Rules of the findings the walk makes. Stable names: scripts match them.
const (
	RuleMissing        = "missing"         // the path does not exist
	RuleUnreadable     = "unreadable"      // stat or listing failed (permissions, not a directory, ...)
	RuleSymlinkLoop    = "symlink-loop"    // a link loop, or a directory reached again through a link
	RuleNotRegular     = "not-regular"     // a FIFO, socket or device: never opened
	RuleUnknownFormat  = "unknown-format"  // a file no layout claims
	RuleFormatMismatch = "format-mismatch" // the forced layout cannot be at this path
	RuleNoSessions     = "no-sessions"     // a named directory holding no session
	// RuleStray: inside a store or session directory its layout reads as
	// one unit, a file or folder the layout neither reads nor expects
	// there (format.Unreader).
	RuleStray = format.RuleStray
	// RuleNotWritten: convert found a session of a store that the target
	// layout's program would keep no such session of (format.ErrNothingToWrite,
	// format.ErrNoTime); the store's other sessions are written.
	RuleNotWritten = "not-written"
)

// Skip is a path the walk passed over, and why. Every skip is reported:
// a warning when met inside a store, an error when the user named it.
type Skip struct {
	Path    string
	Rule    string
	Message string
	Named   bool // the path was given on the command line
}

// Severity is error for a named path, warning for one met while walking.
func (s Skip) Severity() report.Severity {
	if s.Named {
		return report.Error
	}
	return report.Warning
}

// Finding is the skip as every command reports it.
func (s Skip) Finding() report.Finding {
	return report.Finding{Path: s.Path, Severity: s.Severity(), Rule: s.Rule, Message: s.Message}
}

// Code is the exit code a skip causes: none for a warning; for a named
// path, I/O (3) when it could not be read, invalid input (1) otherwise.
func (s Skip) Code() int {
	switch {
	case !s.Named:
		return exitcode.OK
	case s.Rule == RuleMissing || s.Rule == RuleUnreadable || s.Rule == RuleSymlinkLoop || s.Rule == RuleNotRegular:
		return exitcode.IO
	default:
		return exitcode.Invalid
	}
}

// Code is the worst exit code of skips.
func Code(skips []Skip) int {
	code := exitcode.OK
	for _, s := range skips {
		code = exitcode.Worst(code, s.Code())
	}
	return code
}

// PrintSkips writes one finding line per skip, as validate prints its
// findings: PATH:0: warning|error: MESSAGE (RULE). Commands other than
// validate print them on standard error, beside their own output.
func PrintSkips(w io.Writer, skips []Skip) {
	for _, s := range skips {
		fmt.Fprintln(w, s.Finding().Text())
	}
}

// Strays are the strays a layout met while it validated (findings of
// format.RuleStray in rep: see there), as skips.
func Strays(rep *report.Report) []Skip {
	var out []Skip
	for _, f := range rep.Findings() {
		if f.Rule == format.RuleStray {
			out = append(out, Skip{f.Path, RuleStray, f.Message, false})
		}
	}
	return out
}

// statSkip turns a failed stat or listing of p into a skip.
func statSkip(p string, err error, named bool) Skip {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Skip{p, RuleMissing, "no such file or directory", named}
	case errors.Is(err, syscall.ELOOP):
		return Skip{p, RuleSymlinkLoop, "symlink loop (too many levels of symbolic links)", named}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is already the finding's
	}
	return Skip{p, RuleUnreadable, "cannot be read: " + err.Error(), named}
}

// straySkip reports a path inside a unit of f that f does not read: a
// warning, as everything met inside a store.
func straySkip(s format.Stray, f format.Format) Skip {
	if s.Err != nil {
		return statSkip(s.Path, s.Err, false)
	}
	return Skip{s.Path, RuleStray, format.StrayMessage(f.Name(), s.Why), false}
}

// notRegular says what kind of special file fi is.
func notRegular(p string, fi os.FileInfo, named bool) Skip {
	kind := "special file"
	switch m := fi.Mode(); {
	case m&os.ModeNamedPipe != 0:
		kind = "named pipe (FIFO); read it as standard input with - instead"
	case m&os.ModeSocket != 0:
		kind = "socket"
	case m&os.ModeDevice != 0:
		kind = "device"
	}
	// Detecting its layout would read it (and block on a FIFO with no
	// writer), and it cannot be read twice.
	return Skip{p, RuleNotRegular, "not a regular file or directory: a " + kind, named}
}
