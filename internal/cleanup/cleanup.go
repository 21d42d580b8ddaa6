// Package cleanup removes the temporary files and directories a run made
// when the run is stopped by a signal (SIGTERM, SIGINT, SIGHUP, or SIGPIPE
// when a reader of its output goes away), where deferred removals do not
// run: a spooled copy of standard input or a staged output can be as large
// as the input, and would otherwise stay in the temporary directory. A
// SIGKILL cannot be caught; what it leaves is hidden and named for
// sesstool (docs/robustness.md).
package cleanup

import (
	"os"
	"sync"
)

var (
	mu    sync.Mutex
	next  int
	paths = map[int]string{}
)

// Track registers path (a file or a directory) for removal on a signal.
// The returned function forgets it: call it once the path is removed, or
// is a finished output that must stay.
func Track(path string) (forget func()) {
	mu.Lock()
	id := next
	next++
	paths[id] = path
	mu.Unlock()
	return func() {
		mu.Lock()
		delete(paths, id)
		mu.Unlock()
	}
}

// removeAll removes every tracked path. It keeps the lock: the process is
// about to end, and nothing may be tracked (or committed) meanwhile.
func removeAll() {
	mu.Lock()
	for id, p := range paths {
		os.RemoveAll(p)
		delete(paths, id)
	}
}
