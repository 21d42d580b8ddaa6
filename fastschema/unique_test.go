package fastschema

import (
	"fmt"
	"strings"
	"testing"
)

// TestSyntaxRefusesRepeatedKeys: an object with a key twice is never
// accepted, whether its keys are checked pairwise (up to smallObject) or
// through a map, and keys alike in length and first and last byte are
// still told apart.
func TestSyntaxRefusesRepeatedKeys(t *testing.T) {
	obj := func(keys ...string) []byte {
		var parts []string
		for i, k := range keys {
			parts = append(parts, fmt.Sprintf("%q:%d", k, i))
		}
		return []byte("{" + strings.Join(parts, ",") + "}")
	}
	many := func(n int) []string {
		var out []string
		for i := 0; i < n; i++ {
			out = append(out, fmt.Sprintf("k%03d", i))
		}
		return out
	}
	cases := []struct {
		name string
		b    []byte
		want bool
	}{
		{"two keys", obj("a", "b"), true},
		{"a key twice", obj("a", "b", "a"), false},
		{"same signature, other keys", obj("abc", "axc", "aac"), true},
		{"same signature, a key twice", obj("abc", "axc", "abc"), false},
		{"empty keys", obj("", "x", ""), false},
		{"20 keys", obj(many(20)...), true},
		{"20 keys, the last repeats the first", obj(append(many(20), "k000")...), false},
		{"32 keys", obj(many(32)...), true},
		{"32 keys with a repeat", obj(append(many(31), "k030")...), false},
		{"40 keys", obj(many(40)...), true},
		{"40 keys with a repeat", obj(append(many(40), "k007")...), false},
		{"nested, a key twice", []byte(`{"a":{"x":1,"y":2,"x":3}}`), false},
	}
	for _, c := range cases {
		if got := Syntax(c.b); got != c.want {
			t.Errorf("%s: Syntax = %v, want %v", c.name, got, c.want)
		}
	}
}
