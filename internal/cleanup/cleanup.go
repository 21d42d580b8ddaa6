// Package cleanup removes what a run leaves in the temporary directory
// (private copies of its input) when the run ends: normally, through Run,
// or by SIGINT, SIGTERM or SIGHUP, through the handler Signals installs.
package cleanup

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

var (
	mu   sync.Mutex
	next int
	fns  = map[int]func(){}
)

// Add registers fn to run at the end of the run; remove unregisters it
// (for a file the caller already removed itself).
func Add(fn func()) (remove func()) {
	mu.Lock()
	defer mu.Unlock()
	id := next
	next++
	fns[id] = fn
	return func() {
		mu.Lock()
		delete(fns, id)
		mu.Unlock()
	}
}

// Run runs every registered function once, newest first, and forgets it.
func Run() {
	mu.Lock()
	todo := make([]func(), 0, len(fns))
	for id := next - 1; id >= 0 && len(todo) < len(fns); id-- {
		if fn, ok := fns[id]; ok {
			todo = append(todo, fn)
		}
	}
	fns = map[int]func(){}
	mu.Unlock()
	for _, fn := range todo {
		fn()
	}
}

// Signals makes SIGINT, SIGTERM and SIGHUP run the cleanup, then end the
// process with the status a shell gives a process that signal killed.
func Signals() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		s := <-c
		Run()
		code := 128 + 1
		if n, ok := s.(syscall.Signal); ok {
			code = 128 + int(n)
		}
		os.Exit(code)
	}()
}
