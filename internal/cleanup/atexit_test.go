package cleanup

import "testing"

func TestRunAtExitNewestFirstAndOnce(t *testing.T) {
	var got []int
	AtExit(func() { got = append(got, 1) })
	forget := AtExit(func() { got = append(got, 2) })
	AtExit(func() { got = append(got, 3) })
	forget()
	RunAtExit()
	RunAtExit()
	if len(got) != 2 || got[0] != 3 || got[1] != 1 {
		t.Errorf("ran %v, want [3 1]", got)
	}
}
