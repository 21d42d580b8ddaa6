package claude

import (
	"strconv"
	"strings"
	"unicode/utf16"
)

// maxProjectName is the longest project folder name Claude Code writes
// whole; a longer one is cut to it and followed by '-' and a hash.
const maxProjectName = 200

// EncodeCwd is the project folder Claude Code files a session under, as
// Claude Code (2.1.x) and its Agent SDK compute it: the working
// directory, a JavaScript string, with every UTF-16 code unit outside
// ASCII letters and digits replaced by '-' (so 'é' is one '-' and an
// emoji two); a name longer than 200 is cut to 200 and followed by '-'
// and the base-36 absolute value of the path's Java-style string hash
// (h = 31*h + unit, in 32 bits), which keeps long paths apart.
func EncodeCwd(cwd string) string {
	units := utf16.Encode([]rune(cwd))
	var b strings.Builder
	b.Grow(len(units))
	for _, u := range units {
		if u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9' {
			b.WriteByte(byte(u))
		} else {
			b.WriteByte('-')
		}
	}
	name := b.String()
	if len(name) <= maxProjectName {
		return name
	}
	return name[:maxProjectName] + "-" + strconv.FormatInt(abs(int64(stringHash(units))), 36)
}

// stringHash is JavaScript's `(h << 5) - h + charCodeAt(i) | 0` over the
// code units: it wraps in 32 bits, as Go's int32 does.
func stringHash(units []uint16) int32 {
	var h int32
	for _, u := range units {
		h = (h << 5) - h + int32(u)
	}
	return h
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
