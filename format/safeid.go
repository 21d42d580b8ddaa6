package format

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// UnsafeID says why an id read from a session cannot safely become one file
// or directory name inside an output directory, or returns "" when it can.
// Writers name output after session ids (goat's session directory, ash's
// sub-agent files, OpenCode's storage keys), so a validator reports such an
// id (rule "unsafe-id") and convert refuses the input before writing anything.
//
// Refused: the empty id, "." and "..", any path separator (/ or \), NUL and
// other control characters, invalid UTF-8, and more than 255 bytes (the
// longest file name Linux and macOS allow). Windows device names (con, nul,
// aux, ...) are ordinary names on the systems sesstool targets and are
// accepted: on Windows they fail when written, inside the output directory.
func UnsafeID(id string) string {
	switch {
	case id == "":
		return "is empty"
	case id == "." || id == "..":
		return "is a directory reference"
	case strings.ContainsAny(id, `/\`):
		return "contains a path separator"
	case len(id) > 255:
		return "is longer than 255 bytes"
	case !utf8.ValidString(id):
		return "is not valid UTF-8"
	}
	for _, r := range id {
		if r < 0x20 || r == 0x7f {
			return "contains a control character"
		}
	}
	return ""
}

// UnsafeFileID is UnsafeID for an id a writer names a file after with ext
// appended (ash's subagents/<id>.jsonl): near 255 bytes, the id is a legal
// name but the file's is not.
func UnsafeFileID(id, ext string) string {
	if why := UnsafeID(id); why != "" {
		return why
	}
	if len(id)+len(ext) > 255 {
		return fmt.Sprintf("is %d bytes: with %s it is longer than the 255 bytes a file name can have", len(id), ext)
	}
	return ""
}
