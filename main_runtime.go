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
// Measured on 1 GB of tree JSONL: 48 MiB gave a peak RSS of 60 MiB for
// validate and 66 MiB for migrate; 40 MiB gave 54 MiB for validate at 16%
// more CPU time.
const memoryLimit = 40 << 20

func init() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
