package jsonx

import (
	"bytes"
	"encoding/json"
	"math/big"
)

// Equal reports whether a and b hold the same JSON value: same strings after
// unescaping, same numbers by value (1 equals 1.0), same members regardless of
// order. Invalid JSON is equal only to identical bytes.
func Equal(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	va, errA := decode(a)
	vb, errB := decode(b)
	if errA != nil || errB != nil {
		return false
	}
	return equalValue(va, vb)
}

func decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

func equalValue(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalValue(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && numberEqual(x, y)
	default:
		return a == b
	}
}

func numberEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	fa, _, errA := big.ParseFloat(string(a), 10, 256, big.ToNearestEven)
	fb, _, errB := big.ParseFloat(string(b), 10, 256, big.ToNearestEven)
	return errA == nil && errB == nil && fa.Cmp(fb) == 0
}
