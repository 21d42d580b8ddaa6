package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestLiftMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(memoryLimit)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	liftMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit after liftMemoryLimit = %d, want none", got)
	}
	debug.SetMemoryLimit(memoryLimit)
	t.Setenv("GOMEMLIMIT", "40MiB")
	liftMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got != memoryLimit {
		t.Errorf("limit with GOMEMLIMIT set = %d, want %d kept", got, memoryLimit)
	}
}

// Lifting the limit must also bring the collector back: GOGC off with no
// limit would let the heap grow without bound.
func TestLiftMemoryLimitRestoresCollector(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(memoryLimit))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	liftMemoryLimit()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC after lifting the limit = %d, want 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit after lifting = %d, want none", got)
	}
}

// A live heap past the soft limit raises it to twice the live heap after a
// collection, so the collector does not run back to back (issue 18: 2.4
// times the CPU time at a million entries).
func TestLimitFollowsLiveHeap(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(memoryLimit))
	defer limit.Store(0)
	limit.Store(memoryLimit)
	watchLiveHeap()
	live := make([][]byte, 0, 96)
	for range 96 {
		live = append(live, make([]byte, 1<<20)) // 96 MiB live
	}
	for i := 0; i < 5 && debug.SetMemoryLimit(-1) < 2*90<<20; i++ {
		runtime.GC()
		time.Sleep(50 * time.Millisecond) // finalizers run on their own goroutine
	}
	if got := debug.SetMemoryLimit(-1); got < 2*90<<20 {
		t.Errorf("limit %d MiB with 96 MiB live, want at least 180 MiB", got>>20)
	}
	runtime.KeepAlive(live)
}
