// Package short is the one place that decides what a test does under
// `go test -short`, the edit-test loop: a heavy table (real agents,
// browsers, peers, repeated matrices) runs one representative case, and a
// test that only repeats what another covers is skipped with the command
// that runs it. Without -short, every case runs: the full suite
// (scripts/test) never loses a case to this package.
package short

import "testing"

// On reports whether the run is the short edit-test loop.
func On() bool { return testing.Short() }

// Cases returns all under a full run. Under -short it returns the first
// case for which representative is true (the first case when none is),
// and logs how many were left out and the command that runs them.
func Cases[T any](t testing.TB, all []T, representative func(T) bool) []T {
	t.Helper()
	if !testing.Short() || len(all) <= 1 {
		return all
	}
	pick := 0
	if representative != nil {
		for i, c := range all {
			if representative(c) {
				pick = i
				break
			}
		}
	}
	t.Logf("-short: 1 representative case of %d; the full run (go test -run '^%s$' without -short, or scripts/test) runs all", len(all), t.Name())
	return all[pick : pick+1]
}

// Size returns full, or small under -short: the size of a big input.
func Size(full, small int) int {
	if testing.Short() {
		return small
	}
	return full
}

// Rotate returns all under a full run. Under -short it returns the one
// variant at k modulo len(all): a table whose rows each pass their own k
// runs one variant per row, and the rows together still meet every
// variant (a viewport, a theme) while each row meets one.
func Rotate[T any](t testing.TB, all []T, k int) []T {
	t.Helper()
	if !testing.Short() || len(all) <= 1 {
		return all
	}
	i := k % len(all)
	if i < 0 {
		i += len(all)
	}
	t.Logf("-short: variant %d of %d; the full run (go test -run '^%s$' without -short, or scripts/test) runs all", i+1, len(all), t.Name())
	return all[i : i+1]
}

// Skip skips t under -short, saying why and the command that runs it: for
// a test that only repeats what another covers in the short loop (a
// control that tells a peer's change from ours, a second picture).
func Skip(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: %s; the full run (go test -run '^%s$' without -short, or scripts/test) runs it", why, t.Name())
	}
}
