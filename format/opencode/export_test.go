package opencode

import "time"

// SetDBBounds bounds the reading of every database opened until restore is
// called: its time, the length of one value and the bytes of all values.
func SetDBBounds(d time.Duration, value, total int64) (restore func()) {
	old := dbBounds
	dbBounds = func(int64) (time.Duration, int64, int64) { return d, value, total }
	return func() { dbBounds = old }
}
