// Package command implements sesstool's commands: each is the input/output
// pipeline (package pipeline) plus its verb. main.go only wires flags to
// these functions.
package command

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/sesstool/sesstool/exitcode"
)

// Exit codes, as CLI.md defines them.
const (
	ExitOK      = exitcode.OK
	ExitInvalid = exitcode.Invalid
	ExitUsage   = exitcode.Usage
	ExitIO      = exitcode.IO
)

// ExitError carries an exit code with its message.
type ExitError = exitcode.Error

// Usage returns a usage error (exit 2).
func Usage(format string, args ...any) error { return exitcode.Usagef(format, args...) }

// IO wraps an I/O failure (exit 3).
func IO(err error) error { return exitcode.IOError(err) }

// Invalid returns a refusal of invalid input (exit 1).
func Invalid(format string, args ...any) error { return exitcode.Invalidf(format, args...) }

// Silent exits with code and prints nothing more (the command already did).
func Silent(code int) error { return exitcode.Silent(code) }

// Code returns the exit code for err.
func Code(err error) int { return exitcode.Of(err) }

// OpenFailed is the error for a session at name that could not be opened
// or read: I/O (exit 3) when a file could not be opened or read (missing,
// unreadable, a FIFO refused), invalid input (exit 1) otherwise.
func OpenFailed(name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return IO(fmt.Errorf("%s: %w", name, err))
	}
	return invalidIn(name, err)
}

// invalidIn refuses the session at name (exit 1) for err, naming name
// once: a reader's error already names the file it read ("read NAME: line
// 2: ...", "NAME:2:5: ..."), and where that is name it is not named again.
func invalidIn(name string, err error) error { return invalidAt(name, name, err) }

// invalidAt is invalidIn for a session read from path and shown as name:
// standard input, read from its spooled copy, is named <stdin>.
func invalidAt(path, name string, err error) error { return Invalid("%s", named(path, name, err)) }

// named is err's message, with path shown as name, led by name unless it
// already is.
func named(path, name string, err error) string {
	msg := err.Error()
	if path != "" && path != name {
		msg = strings.ReplaceAll(msg, path, name)
	}
	msg = strings.TrimPrefix(msg, "read "+name+": ")
	if strings.HasPrefix(msg, name+":") {
		return msg
	}
	return name + ": " + msg
}
