package report

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// Spilled findings come back as held ones would: sorted by path, line and
// column, equals in the order they were added, with every field, however
// many runs (past maxRuns they are merged into one) and after a Drain.
func TestSpillKeepsOrderAndFields(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		spill int
	}{
		{"held", 2000, 0},
		{"one run and memory", 2000, 200 << 10},
		{"many runs", 20000, 8 << 10},
		{"merged runs", 8000, 2 << 10}, // about 800 runs: merged every maxRuns
	} {
		t.Run(tc.name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(1, 2))
			r := &Report{Spill: tc.spill}
			defer r.Close()
			var want []Finding
			for i := range tc.n {
				f := Finding{Path: fmt.Sprintf("p%d", rnd.IntN(3)), Line: rnd.IntN(500), Column: rnd.IntN(3),
					Pointer: "/a", Severity: Warning, Rule: "r", Message: fmt.Sprintf("m%d ü", i)}
				if i%7 == 0 {
					f.Severity, f.Pointer = Error, ""
				}
				r.Add(f)
				want = append(want, f)
			}
			slices.SortStableFunc(want, less)
			if tc.spill > 0 && r.spool == nil {
				t.Fatal("nothing was spilled")
			}
			if got := r.Findings(); !slices.Equal(got, want) {
				t.Fatalf("%d findings back, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
			}
			var got []Finding
			if err := r.Drain(func(f Finding) error { got = append(got, f); return nil }); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("drained %d findings, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
			}
			if left := r.Findings(); len(left) != 0 || r.spool != nil {
				t.Errorf("%d findings left after Drain", len(left))
			}
			if r.Errors()+r.Warnings() != tc.n {
				t.Errorf("counted %d, want %d", r.Errors()+r.Warnings(), tc.n)
			}
		})
	}
}

func firstDiff(a, b []Finding) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
