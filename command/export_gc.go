package command

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// An export keeps little (a skeleton per entry, a few hundred bytes) and
// makes much short-lived garbage (every entry decoded, rendered and
// deflated): 1.1 GB of it for the 100 MB benchmark session. Collecting
// each time the heap grows by half of what is live (GOGC=50, as export did
// before) ran the collector 82 times there, while the live heap was 11-41
// MiB. Instead the collector waits for a floor of exportHeapFloor (GOGC off,
// a soft memory limit) and, above it, for the heap to grow by half of what
// is live, which the limit is raised to after each collection: 10-20% less CPU
// time for the 100 MB export at the same peak RSS (107 MiB); for a huge
// session (a million tiny entries keep 600 MiB of skeleton) about what
// GOGC=50 under a limit of exportMemoryLimit did, without the collector
// running back to back once what is live passes that limit. GOGC or
// GOMEMLIMIT, when set, win.
const exportHeapFloor = 96 << 20

// exportMemoryLimit is where the limit stops growing by half of what is
// live: past it, by an eighth.
const exportMemoryLimit = 896 << 20

// exportLimit returns the soft limit for a live heap of live bytes.
func exportLimit(live int64) int64 {
	want := live + live/2
	if want > exportMemoryLimit {
		want = max(exportMemoryLimit, live+live/8)
	}
	return max(exportHeapFloor, want)
}

// tuneExportGC sets export's collector policy and returns what puts the
// previous one back.
func tuneExportGC() (restore func()) {
	gogc, memlimit := os.Getenv("GOGC") != "", os.Getenv("GOMEMLIMIT") != ""
	switch {
	case gogc && memlimit:
		return func() {}
	case gogc:
		prev := debug.SetMemoryLimit(exportMemoryLimit)
		return func() { debug.SetMemoryLimit(prev) }
	case memlimit:
		prev := debug.SetGCPercent(50)
		return func() { debug.SetGCPercent(prev) }
	}
	prevGC := debug.SetGCPercent(-1)
	prevLimit := debug.SetMemoryLimit(exportHeapFloor)
	w := &heapFloor{on: true}
	w.arm()
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.on = false
		debug.SetMemoryLimit(prevLimit)
		debug.SetGCPercent(prevGC)
	}
}

// heapFloor raises the soft limit after each collection, from a finalizer
// on a sentinel that re-arms itself, until it is turned off.
type heapFloor struct {
	mu     sync.Mutex
	on     bool
	sample [1]metrics.Sample
}

type gcSentinel struct{ _ [16]byte } // large enough not to share a tiny-alloc block

func (w *heapFloor) arm() {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.on {
			return
		}
		w.sample[0].Name = "/gc/heap/live:bytes"
		metrics.Read(w.sample[:])
		if w.sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		if want := exportLimit(int64(w.sample[0].Value.Uint64())); want > debug.SetMemoryLimit(-1) {
			debug.SetMemoryLimit(want)
		}
		w.arm()
	})
}
