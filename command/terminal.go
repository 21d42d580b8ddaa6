package command

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// printable spells s so that printing it cannot drive a terminal: control
// characters (C0, DEL, C1: escape sequences start with ESC or CSI), the
// bidirectional overrides that reorder what is shown, and bytes that are
// not UTF-8 come out as Go escapes (\x1b, \u202e). A session's title, id
// or cwd is whatever the file says.
func printable(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case escaped(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case escaped(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsEscape(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for _, r := range s {
		if escaped(r) {
			return true
		}
	}
	return false
}

func escaped(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
