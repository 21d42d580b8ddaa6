package opencode

import "github.com/sesstool/sesstool/internal/walcopy"

// A database copied while OpenCode runs keeps its newest rows in the
// write-ahead log beside it (opencode.db-wal): such a database is read
// from a private copy of both files (internal/walcopy), one without a log
// in place, immutable.

// sourceOf says what to open for the database at path (absolute).
func sourceOf(abs string) (walcopy.Source, error) {
	return walcopy.Of(abs, "opencode", "opencode.db")
}
