package html

import "testing"

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 54693675: "54,693,675", -1234567: "-1,234,567", 100000: "100,000"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestMoney(t *testing.T) {
	for c, want := range map[float64]string{0: "$0.0000", 0.0123: "$0.0123", 1.5: "$1.50", 1234.567: "$1,234.57", 2.996: "$3.00"} {
		if got := Money(c); got != want {
			t.Errorf("Money(%v) = %q, want %q", c, got, want)
		}
	}
}
