//go:build !unix

package opencode

import "github.com/sesstool/sesstool/internal/regfile"

// readFile reads path; buf is only a hint on other systems.
func readFile(path string, buf []byte) ([]byte, error) { return regfile.ReadFile(path) }
