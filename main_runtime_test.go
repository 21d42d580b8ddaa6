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

// A live heap past the soft limit raises it after a collection, so the
// collector does not run back to back (issue 18: 2.4 times the CPU time at
// a million entries): 96 MiB of pointer-free bytes get at least half as
// much again, 96 MiB of pointers twice as much.
func TestLimitFollowsLiveHeap(t *testing.T) {
	for _, c := range []struct {
		name string
		make func() any
		want int64
	}{
		{"bytes", func() any {
			live := make([][]byte, 0, 96)
			for range 96 {
				live = append(live, make([]byte, 1<<20))
			}
			return live
		}, 3 * 90 << 20 / 2},
		{"pointers", func() any {
			live := make([][]*int, 0, 96)
			for range 96 {
				live = append(live, make([]*int, 1<<17)) // 1 MiB of pointers each
			}
			return live
		}, 2 * 90 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(memoryLimit))
			defer limit.Store(0)
			limit.Store(memoryLimit)
			watchLiveHeap()
			live := c.make()
			for i := 0; i < 5 && debug.SetMemoryLimit(-1) < c.want; i++ {
				runtime.GC()
				time.Sleep(50 * time.Millisecond) // finalizers run on their own goroutine
			}
			if got := debug.SetMemoryLimit(-1); got < c.want {
				t.Errorf("limit %d MiB with 96 MiB live, want at least %d MiB", got>>20, c.want>>20)
			}
			runtime.KeepAlive(live)
		})
	}
}

func TestLimitFor(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ live, scan, want int64 }{
		{29 * mib, 2 * mib, 43*mib + mib/2}, // a uuid table: half again
		{100 * mib, 100 * mib, 200 * mib},   // all pointers: twice
		{100 * mib, 30 * mib, 160 * mib},    // between: twice what is scanned
		{0, 0, 0},
	} {
		if got := limitFor(c.live, c.scan); got != c.want {
			t.Errorf("limitFor(%d MiB, %d MiB) = %d MiB, want %d MiB", c.live/mib, c.scan/mib, got/mib, c.want/mib)
		}
	}
}
