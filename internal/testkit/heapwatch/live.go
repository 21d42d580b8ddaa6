package heapwatch

import (
	"runtime"
	"runtime/metrics"
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
	peak := peakWhile(f, live)
	// a collection that ended just before f did is seen here
	return int64(max(peak, live())) - int64(before)
}

func live() uint64 {
	s := []metrics.Sample{{Name: liveMetric}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
