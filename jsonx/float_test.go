package jsonx

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// marshalFloat is encoding/json's spelling of f, which AppendFloat keeps
// without its reflection.
func marshalFloat(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	b, err := json.Marshal(f)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestAppendFloatAsJSON compares AppendFloat with encoding/json on the
// edges of its two forms (1e-6, 1e21), exponents of one to three digits,
// signs, zeros, and a million random doubles (bits and decimals).
func TestAppendFloatAsJSON(t *testing.T) {
	cases := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 0.000001, 0.0000009999999, 1e-7, 1e-10, 1e-100, 5e-324,
		1e20, 1e21, 123456789012345678901, 1e100, math.MaxFloat64, -1e21, -1e-7, 3.14159, 0.0021015, 2.5e-5,
		math.NaN(), math.Inf(1), math.Inf(-1), 9007199254740993, 12345}
	r := rand.New(rand.NewPCG(1, 2))
	for range 500_000 {
		cases = append(cases, math.Float64frombits(r.Uint64()), float64(r.IntN(1e9))/math.Pow(10, float64(r.IntN(30))))
	}
	for _, f := range cases {
		if got, want := string(AppendFloat([]byte("x"), f)), "x"+marshalFloat(f); got != want {
			t.Fatalf("AppendFloat(%v) = %s, encoding/json %s", f, got, want)
		}
	}
}

func FuzzAppendFloat(f *testing.F) {
	for _, s := range []float64{0, 1e-7, 1e21, 0.1, -2.5e-300} {
		f.Add(math.Float64bits(s))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		if got, want := string(AppendFloat(nil, v)), marshalFloat(v); got != want {
			t.Fatalf("AppendFloat(%v) = %s, encoding/json %s", v, got, want)
		}
	})
}
