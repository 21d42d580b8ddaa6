package heapwatch

import "testing"

var sink [][]byte

// TestLiveGrowth: memory kept shows, garbage does not.
func TestLiveGrowth(t *testing.T) {
	const chunk, total = 1 << 20, 64 << 20
	for _, c := range []struct {
		name     string
		keep     bool
		min, max int64
	}{
		{"kept", true, total / 4, 2 * total},
		// A collection counts what is allocated while it marks as live
		// (the runtime allocates black), so garbage made as fast as this
		// shows up to one mark phase's worth: on a loaded machine 20 MB of
		// the 64 were seen, on an idle one under 8.
		{"garbage", false, 0, total / 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			grew := LiveGrowth(func() {
				for range total / chunk {
					b := make([]byte, chunk)
					b[0] = 1
					if c.keep {
						sink = append(sink, b)
					} else {
						sink = [][]byte{b}
					}
				}
			})
			sink = nil
			t.Logf("%d bytes allocated, live heap grew by at most %d", total, grew)
			if grew < c.min || grew > c.max {
				t.Errorf("live heap grew by %d bytes, want between %d and %d", grew, c.min, c.max)
			}
		})
	}
}
