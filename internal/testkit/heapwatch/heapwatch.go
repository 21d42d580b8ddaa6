// Package heapwatch measures, for memory tests, how far the heap in use
// rises while a function runs: the bound a streaming exporter is held to.
package heapwatch

import (
	"runtime"
	"sync/atomic"
	"time"
)

// Growth runs f after a collection and returns by how much the heap in use
// rose above its level before f, at most (sampled every 5 ms), and the
// statistics read before f ran.
func Growth(f func()) (grew int64, before runtime.MemStats) {
	runtime.GC()
	runtime.ReadMemStats(&before)
	var m runtime.MemStats
	peak := peakWhile(f, func() uint64 {
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	})
	return int64(peak) - int64(before.HeapInuse), before
}

// peakWhile runs f and returns the greatest value sample gave while it ran,
// sampled every 5 ms from another goroutine.
func peakWhile(f func(), sample func() uint64) uint64 {
	var peak atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			if v := sample(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	<-done
	return peak.Load()
}
