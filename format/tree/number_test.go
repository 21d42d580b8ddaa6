package tree

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/tidwall/gjson"
)

// integerRef and numberRef are integer and number by the library alone,
// which the fast paths must agree with.
func integerRef(v []byte) (int64, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || bytes.ContainsAny(v, ".eE+") || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
		return 0, false
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	return n, err == nil
}

func numberRef(v []byte) (float64, bool) {
	r := gjson.ParseBytes(v)
	if r.Type != gjson.Number {
		return 0, false
	}
	enc := jsonx.AppendFloat(nil, r.Num) // encoding/json's spelling (jsonx tests)
	if !bytes.Equal(enc, bytes.TrimSpace(v)) && !jsonx.Equal(enc, v) {
		return 0, false
	}
	return r.Num, true
}

func agreeNumbers(t *testing.T, s string) {
	v := []byte(s)
	if n, ok := integer(v); true {
		if rn, rok := integerRef(v); n != rn || ok != rok {
			t.Errorf("integer(%q) = %d, %v; want %d, %v", s, n, ok, rn, rok)
		}
	}
	f, ok := number(v)
	rf, rok := numberRef(v)
	if ok != rok || ok && (f != rf || math.Signbit(f) != math.Signbit(rf)) {
		t.Errorf("number(%q) = %v, %v; want %v, %v", s, f, ok, rf, rok)
	}
}

func TestNumbersAsTheLibrary(t *testing.T) {
	for _, s := range []string{"", "-", "0", "-0", "00", "007", "-007", "1", "-1", "12", " 12", "12 ", "1.0", "1e3", "+1",
		"999999999999999", "-999999999999999", "1000000000000000", "9999999999999999", "9223372036854775807",
		"9223372036854775808", "-9223372036854775808", "0.1", "0.0021015", "1e-7", "1.5E+3", `"1"`, "true", "null", "1_0", "１"} {
		agreeNumbers(t, s)
	}
}

func FuzzNumbers(f *testing.F) {
	for _, s := range []string{"0", "-0", "12", "0.5", "1e21", "00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { agreeNumbers(t, s) })
}
