// Package exitcode holds the exit codes CLI.md defines and the error that
// carries one, so the pipeline and the commands above it agree on them.
package exitcode

import (
	"errors"
	"fmt"
)

// Exit codes, as CLI.md defines them.
const (
	OK      = 0
	Invalid = 1 // validate found errors; an input was refused as invalid
	Usage   = 2 // unknown command, flag or format; missing argument
	IO      = 3 // an input or output could not be read or written
)

// Error carries an exit code with its message.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Usagef returns a usage error (exit 2).
func Usagef(format string, args ...any) error {
	return &Error{Usage, fmt.Errorf(format, args...)}
}

// Invalidf returns a refusal of invalid input (exit 1).
func Invalidf(format string, args ...any) error {
	return &Error{Invalid, fmt.Errorf(format, args...)}
}

// IOError wraps an I/O failure (exit 3); an error that already carries a
// code keeps it.
func IOError(err error) error {
	if err == nil {
		return nil
	}
	var ee *Error
	if errors.As(err, &ee) {
		return err
	}
	return &Error{IO, err}
}

// Silent exits with code and prints nothing more (the command already did).
func Silent(code int) error { return &Error{Code: code} }

// Of returns the exit code for err.
func Of(err error) int {
	if err == nil {
		return OK
	}
	var ee *Error
	if errors.As(err, &ee) {
		return ee.Code
	}
	return IO
}

// Worst is the exit code that wins when a run met several outcomes: I/O
// over invalid input over success. Usage errors stop a run before it
// starts, so they never meet the others.
func Worst(a, b int) int { return max(a, b) }
