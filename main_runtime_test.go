package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestStreams(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"validate", "a.jsonl"}, true},
		{[]string{"--no-color", "migrate", "a.jsonl"}, true},
		{[]string{"convert", "--to", "tree", "x"}, true},
		{[]string{"convert", "--to=pi", "x"}, true},
		{[]string{"convert", "--to", "flat", "x"}, true},
		{[]string{"convert", "--to=goat", "x"}, true},
		{[]string{"convert", "--to", "opencode", "x"}, false},
		{[]string{"export", "html", "x"}, false},
		{[]string{"info", "x"}, false},
		{nil, false},
	}
	for _, tc := range tests {
		if got := streams(tc.args); got != tc.want {
			t.Errorf("streams(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

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
