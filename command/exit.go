// Package command implements sesstool's commands on top of the registry and
// the neutral model. main.go only wires flags to these functions.
package command

import (
	"errors"
	"fmt"
)

// Exit codes, as CLI.md defines them.
const (
	ExitOK      = 0
	ExitInvalid = 1 // validate found errors; an input was refused as invalid
	ExitUsage   = 2 // unknown command, flag or format; missing argument
	ExitIO      = 3 // an input or output could not be read or written
)

// ExitError carries an exit code with its message.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// Usage returns a usage error (exit 2).
func Usage(format string, args ...any) error {
	return &ExitError{ExitUsage, fmt.Errorf(format, args...)}
}

// IO wraps an I/O failure (exit 3).
func IO(err error) error {
	if err == nil {
		return nil
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return err
	}
	return &ExitError{ExitIO, err}
}

// Invalid returns a refusal of invalid input (exit 1).
func Invalid(format string, args ...any) error {
	return &ExitError{ExitInvalid, fmt.Errorf(format, args...)}
}

// Silent exits with code and prints nothing more (the command already did).
func Silent(code int) error { return &ExitError{Code: code} }

// Code returns the exit code for err.
func Code(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitIO
}
