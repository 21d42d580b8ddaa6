package main

import (
	"os"
	"runtime/debug"
)

// A soft memory limit keeps the streaming commands' peak RSS flat in file
// size: without it the collector lets the heap grow to twice what is live,
// and a worker pool decoding megabytes of lines a second makes a lot of
// short-lived garbage. The limit is soft: a command that really holds more
// (export keeps a session) gets what it needs, and GOMEMLIMIT still wins.
const memoryLimit = 48 << 20

func init() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
