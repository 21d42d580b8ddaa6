package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"

	"github.com/sesstool/sesstool/pipeline"
)

// A soft memory limit keeps the streaming commands' peak RSS flat in file
// size: without it the collector lets the heap grow to twice what is live,
// and a worker pool decoding megabytes of lines a second makes a lot of
// short-lived garbage. Measured on 1 GB of tree JSONL: 48 MiB gave a peak
// RSS of 60 MiB for validate and 66 MiB for migrate; 40 MiB gave 54 MiB for
// validate at 16% more CPU time.
//
// It is set only for commands that stream: a command that holds a whole
// session (export; convert to ash, whose writer needs the session)
// would keep the heap above the limit, and the collector would then run all
// the time (export of 100 MB took 277 CPU seconds with
// the limit). GOMEMLIMIT, when set, always wins.
const memoryLimit = 40 << 20

// With the limit set, the collector also waits until the heap reaches it
// (GOGC off) instead of running each time the heap doubles: the live heap of
// a streaming command is a few MiB, so doubling came every few MiB of
// garbage. Measured on the 100 MB migrate and the 1 GB validate: 10-20%
// less CPU, peak RSS 47-53 MiB instead of 43-52. GOGC, when set, wins.
func init() {
	if os.Getenv("GOMEMLIMIT") == "" && pipeline.Streams(os.Args[1:]) {
		debug.SetMemoryLimit(memoryLimit)
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(-1)
			limit.Store(memoryLimit)
			watchLiveHeap()
		}
	}
}

// limit is the soft limit set now; 0 once lifted or when not ours.
var limit atomic.Int64

// A streaming command's live heap still grows a few bytes per entry (the
// tree index, ids checked for duplicates): at a million entries it passes
// 40 MiB, and with GOGC off the collector then runs back to back (2.4
// times the CPU time). After each collection the limit is raised to what
// the live heap allows (limitFor) when that is more: flat for ordinary
// sessions, no thrashing for huge ones.
func watchLiveHeap() {
	s := &sentinel{}
	runtime.SetFinalizer(s, func(*sentinel) {
		if raiseLimit() {
			watchLiveHeap()
		}
	})
}

type sentinel struct{ _ [16]byte } // large enough not to share a tiny-alloc block

var liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/heap:bytes"}}

// raiseLimit runs after a collection; it reports whether to keep watching.
func raiseLimit() bool {
	cur := limit.Load()
	if cur == 0 {
		return false
	}
	metrics.Read(liveSample)
	if liveSample[0].Value.Kind() != metrics.KindUint64 || liveSample[1].Value.Kind() != metrics.KindUint64 {
		return false
	}
	want := limitFor(int64(liveSample[0].Value.Uint64()), int64(liveSample[1].Value.Uint64()))
	if want > cur && limit.CompareAndSwap(cur, want) {
		debug.SetMemoryLimit(want)
	}
	return true
}

// limitFor is the limit for a live heap of live bytes, scan of them
// holding pointers. A collection's work is marking what holds pointers, so
// the headroom above the live heap, which sets how often the collector
// runs, follows that: twice the scannable bytes, at least half and at most
// all of the live heap (what GOGC=100 would allow). A heap of pointers (a
// million tiny entries in the model) gets twice its size, as before; one
// that is mostly a pointer-free table (1 GB of Claude Code: a 20 MB uuid
// index, 2 MB to scan) gets 1.5 times, which took its peak RSS from 66-71
// MiB to 54-56 at the same CPU time, though the collector runs twice as
// often.
func limitFor(live, scan int64) int64 {
	return live + min(max(2*scan, live/2), live)
}

// liftMemoryLimit drops the limit for a command that turned out to hold its
// input in memory: an OpenCode store read once, at 60,000 small files,
// keeps a live heap near the limit, and the collector then runs almost
// without pause (convert of a 10,000-message store: 3 times the CPU time).
// GOMEMLIMIT, when set, still wins.
// The collector goes back to running when the heap doubles: without the
// limit, GOGC off would let the heap grow without bound.
func liftMemoryLimit() {
	limit.Store(0)
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(math.MaxInt64)
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(100)
		}
	}
}
