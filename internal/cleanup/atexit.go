package cleanup

// What lives as long as the run (a private copy of an OpenCode database
// and its write-ahead log, shared by every session read from it) has no
// owner to remove it when done: AtExit registers its removal for the end
// of the run, which main runs (RunAtExit). A signal removes the tracked
// paths instead (Track, OnSignals).

var (
	exitFns  = map[int]func(){}
	exitNext int
)

// AtExit registers fn to run at the end of the run; the returned function
// unregisters it.
func AtExit(fn func()) (forget func()) {
	mu.Lock()
	id := exitNext
	exitNext++
	exitFns[id] = fn
	mu.Unlock()
	return func() {
		mu.Lock()
		delete(exitFns, id)
		mu.Unlock()
	}
}

// RunAtExit runs every registered function once, newest first, and
// forgets it.
func RunAtExit() {
	mu.Lock()
	var todo []func()
	for id := exitNext - 1; id >= 0 && len(todo) < len(exitFns); id-- {
		if fn, ok := exitFns[id]; ok {
			todo = append(todo, fn)
		}
	}
	exitFns = map[int]func(){}
	mu.Unlock()
	for _, fn := range todo {
		fn()
	}
}
