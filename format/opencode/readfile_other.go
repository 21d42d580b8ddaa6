//go:build !unix

package opencode

import "os"

// readFile reads path; buf is only a hint on other systems.
func readFile(path string, buf []byte) ([]byte, error) { return os.ReadFile(path) }
