package command

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestExportLimit: the soft limit is the floor until half of what is live
// passes it, then grows by half of what is live, and past
// exportMemoryLimit by an eighth.
func TestExportLimit(t *testing.T) {
	for _, c := range []struct{ live, want int64 }{
		{0, exportHeapFloor},
		{40 << 20, exportHeapFloor},
		{64 << 20, exportHeapFloor},
		{100 << 20, 150 << 20},
		{600 << 20, 896 << 20},
		{800 << 20, 900 << 20},
		{1 << 30, 1<<30 + 128<<20},
	} {
		if got := exportLimit(c.live); got != c.want {
			t.Errorf("exportLimit(%d MiB) = %d MiB, want %d MiB", c.live>>20, got>>20, c.want>>20)
		}
	}
}

// TestTuneExportGC: with neither GOGC nor GOMEMLIMIT set, export turns
// GOGC off under the floor's limit, raises the limit after a collection
// when what is live calls for it, and puts both back when it is done;
// with GOGC set it only sets the limit.
func TestTuneExportGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	prevGC, prevLimit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	debug.SetGCPercent(prevGC)
	restore := tuneExportGC()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GOGC during export = %d, want off (-1)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != exportHeapFloor {
		t.Errorf("limit during export = %d, want %d", got, exportHeapFloor)
	}
	keep := make([][]byte, 0, 200)
	for range 200 {
		keep = append(keep, make([]byte, 1<<20))
	}
	// the limit is raised by a finalizer, which runs after the collection
	got := debug.SetMemoryLimit(-1)
	for i := 0; i < 100 && got <= exportHeapFloor; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		got = debug.SetMemoryLimit(-1)
	}
	if got <= exportHeapFloor {
		t.Errorf("limit with 200 MiB live = %d MiB, want it raised above the floor", got>>20)
	}
	runtime.KeepAlive(keep)
	restore()
	if got := debug.SetGCPercent(prevGC); got != prevGC {
		t.Errorf("GOGC after export = %d, want %d", got, prevGC)
	}
	if got := debug.SetMemoryLimit(-1); got != prevLimit {
		t.Errorf("limit after export = %d, want %d", got, prevLimit)
	}

	t.Setenv("GOGC", "100")
	restore = tuneExportGC()
	if got := debug.SetGCPercent(-1); got == -1 {
		t.Error("GOGC set: export turned the collector's percent off")
	}
	debug.SetGCPercent(prevGC)
	if got := debug.SetMemoryLimit(-1); got != exportMemoryLimit {
		t.Errorf("GOGC set: limit = %d, want %d", got, exportMemoryLimit)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != prevLimit {
		t.Errorf("limit after export = %d, want %d", got, prevLimit)
	}
}
