//go:build !linux

package pipeline

import "errors"

// exchange is not available here: swapDir renames the old one aside.
func exchange(a, b string) error { return errors.New("no atomic exchange") }
