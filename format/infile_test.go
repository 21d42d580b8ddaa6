package format

import (
	"slices"
	"testing"

	"github.com/sesstool/sesstool/session"
)

// TestInFile: a layout keeping sub-agent runs only in its home declares,
// for a single file, no runs and no entries starting or ending one; every
// other declaration is its own.
func TestInFile(t *testing.T) {
	kinds := []session.Kind{session.KindCompaction, session.KindSubagent, session.KindSubagentEnd}
	for _, tc := range []struct {
		name     string
		in       Caps
		homeOnly bool
		kinds    []session.Kind
	}{
		{"runs in the home", Caps{SidechainsInHome: true, KindsConverted: kinds}, true, []session.Kind{session.KindCompaction}},
		{"runs anywhere", Caps{Sidechains: true, KindsConverted: kinds}, false, kinds},
		{"no runs", Caps{KindsConverted: kinds[:1]}, false, kinds[:1]},
		{"title in the home", Caps{TitleInHome: true, KindsConverted: kinds[:1]}, false, kinds[:1]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.in.InFile()
			if got.SidechainsInHome || got.RunsHomeOnly != tc.homeOnly || got.Sidechains != tc.in.Sidechains {
				t.Errorf("InFile() = SidechainsInHome %v, RunsHomeOnly %v, Sidechains %v", got.SidechainsInHome, got.RunsHomeOnly, got.Sidechains)
			}
			if got.TitleHomeOnly != tc.in.TitleInHome || got.TitleInHome != tc.in.TitleInHome {
				t.Errorf("InFile() = TitleHomeOnly %v, TitleInHome %v; want both %v", got.TitleHomeOnly, got.TitleInHome, tc.in.TitleInHome)
			}
			if !slices.Equal(got.KindsConverted, tc.kinds) {
				t.Errorf("KindsConverted %v, want %v", got.KindsConverted, tc.kinds)
			}
			if !slices.Equal(tc.in.KindsConverted, kinds[:len(tc.in.KindsConverted)]) {
				t.Errorf("InFile changed the declaration it was called on: %v", tc.in.KindsConverted)
			}
		})
	}
}
