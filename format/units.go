package format

// Units says how a directory layout's output, written complete into a
// staging directory, is moved into place. Each session is committed as a
// unit: a directory renamed whole (swapped whole with an existing one
// under --force), so that a kill never leaves a partial session, or new
// files mixed with old ones, under the final name.
//
// A layout whose every session is one top-level directory of its output
// (goat, ash) needs nothing: that is the default. A layout whose sessions
// are spread over a shared tree (OpenCode's storage) implements Uniter.
type Units struct {
	// Each lists, in the order they are committed, slash-separated glob
	// patterns (path.Match) of the directories and files under the output
	// root each committed as one piece. The last is where a reader finds a
	// session (OpenCode's session file): it lands after everything it
	// refers to, and an existing one is moved out of sight first when it
	// is replaced, so a kill hides a session rather than mixing two.
	Each []string
	// Shared lists patterns of store-wide files that sessions share
	// (OpenCode's migration marker and project files): created when
	// absent, never replaced, even with --force, so adding a session
	// leaves every unrelated file as it was.
	Shared []string
}

// Uniter is implemented by a directory layout whose sessions are not each
// one top-level directory of its output.
type Uniter interface {
	Units() Units
}

// SessionDirs is the default: every top-level entry is one session's
// directory.
var SessionDirs = Units{Each: []string{"*"}}
