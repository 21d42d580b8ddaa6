package short

import (
	"flag"
	"strings"
	"testing"
)

// setShort sets -short for one test and restores it after.
func setShort(t *testing.T, on bool) {
	t.Helper()
	f := flag.Lookup("test.short")
	old := f.Value.String()
	v := "false"
	if on {
		v = "true"
	}
	if err := f.Value.Set(v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Value.Set(old) })
}

func TestCases(t *testing.T) {
	all := []string{"a", "b", "c"}
	isB := func(s string) bool { return s == "b" }
	tests := []struct {
		name  string
		short bool
		rep   func(string) bool
		want  []string
	}{
		{"full run keeps every case", false, isB, []string{"a", "b", "c"}},
		{"short keeps the representative", true, isB, []string{"b"}},
		{"short with no representative keeps the first", true, nil, []string{"a"}},
		{"short with no match keeps the first", true, func(string) bool { return false }, []string{"a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			setShort(t, tc.short)
			got := Cases(t, all, tc.rep)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestSize(t *testing.T) {
	for _, on := range []bool{false, true} {
		setShort(t, on)
		want := 1000
		if on {
			want = 10
		}
		if got := Size(1000, 10); got != want {
			t.Errorf("short=%v: Size(1000, 10) = %d, want %d", on, got, want)
		}
	}
}

func TestRotate(t *testing.T) {
	all := []string{"a", "b", "c"}
	tests := []struct {
		name  string
		short bool
		k     int
		want  []string
	}{
		{"full run keeps every variant", false, 1, []string{"a", "b", "c"}},
		{"short keeps the k-th", true, 1, []string{"b"}},
		{"short wraps around", true, 5, []string{"c"}},
		{"short with a negative k wraps too", true, -1, []string{"c"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			setShort(t, tc.short)
			got := Rotate(t, all, tc.k)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSkip(t *testing.T) {
	for _, on := range []bool{false, true} {
		setShort(t, on)
		ran := false
		t.Run("sub", func(t *testing.T) {
			Skip(t, "a control")
			ran = true
		})
		if ran == on {
			t.Errorf("short=%v: the test ran = %v, want %v", on, ran, !on)
		}
	}
}
