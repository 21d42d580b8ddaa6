package session

import (
	"strconv"
	"time"
)

// Time is an instant plus the spelling it was read with. Formats disagree on
// spelling (ISO with Z, Python's +00:00 with microseconds, RFC 3339 nano in a
// local zone, Unix milliseconds), and a same-format writer must reproduce it.
type Time struct {
	T   time.Time
	Raw string // source spelling: the string's content, or the number's digits; "" when built
}

// IsZero reports whether no time is set.
func (t Time) IsZero() bool { return t.T.IsZero() && t.Raw == "" }

// UnixMilli returns the instant in Unix milliseconds (0 when unset).
func (t Time) UnixMilli() int64 {
	if t.T.IsZero() {
		return 0
	}
	return t.T.UnixMilli()
}

// FromMillis builds a Time from Unix milliseconds, keeping the digits as Raw.
func FromMillis(ms int64) Time {
	return Time{T: time.UnixMilli(ms).UTC(), Raw: strconv.FormatInt(ms, 10)}
}

// ParseTime reads an ISO 8601 / RFC 3339 string in any of the spellings the
// formats use (Z or numeric offset, 0 to 9 fraction digits). ok is false when
// the string is not such a time; Raw is kept either way.
func ParseTime(s string) (Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05.999999999Z0700"} {
		if t, err := time.Parse(layout, s); err == nil {
			return Time{T: t, Raw: s}, true
		}
	}
	return Time{Raw: s}, false
}
