package heapwatch

import (
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

const liveMetric = "/gc/heap/live:bytes"

// LiveGrowth runs f after a collection and returns by how much the live
// heap (what the last collection found reachable) rose above its level
// before f, at most (sampled every 5 ms). Unlike Growth it leaves out
// garbage not yet collected, whose amount depends on when the collector
// gets a core: on a loaded machine it comes late, and garbage would pass
// for memory kept.
func LiveGrowth(f func()) int64 {
	runtime.GC()
	before := live()
	var peak atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			if v := live(); v > peak.Load() {
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
	// a collection that ended just before f did is seen here
	return int64(max(peak.Load(), live())) - int64(before)
}

func live() uint64 {
	s := []metrics.Sample{{Name: liveMetric}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
