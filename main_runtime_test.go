package main

import (
	"math"
	"runtime/debug"
	"testing"
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
