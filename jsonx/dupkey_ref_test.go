package jsonx

import (
	"encoding/json"
	"strings"
	"testing"
)

// The DuplicateKey that decoded every key into a new string and skipped
// strings a byte at a time: the reference the allocation-free one is
// compared with.

func refDuplicateKey(b []byte) (key string, offset int, found bool) {
	var stack []refKeyFrame
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{':
			stack = append(stack, refKeyFrame{obj: true, expectKey: true})
		case '[':
			stack = append(stack, refKeyFrame{})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 && stack[n-1].obj {
				stack[n-1].expectKey = true
			}
		case '"':
			end := refStringEnd(b, i)
			if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].expectKey {
				f := &stack[n-1]
				f.expectKey = false
				k := refKeyText(b[i:end])
				if f.has(k) {
					return k, i, true
				}
				f.add(k)
			}
			i = end - 1
		}
	}
	return "", 0, false
}

// stringEnd returns the offset just past the string starting at b[i] == '"'.
func refStringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// keyText decodes a quoted key; keys without escapes are used as they are.
func refKeyText(q []byte) string {
	for _, c := range q {
		if c == '\\' {
			var s string
			if json.Unmarshal(q, &s) == nil {
				return s
			}
			break
		}
	}
	if len(q) >= 2 {
		return string(q[1 : len(q)-1])
	}
	return string(q)
}

// refKeyFrame is one open object or array; objects remember their keys (a
// slice while few, then a set).
type refKeyFrame struct {
	obj       bool
	expectKey bool
	keys      []string
	set       map[string]struct{}
}

func (f *refKeyFrame) has(k string) bool {
	if f.set != nil {
		_, ok := f.set[k]
		return ok
	}
	for _, x := range f.keys {
		if x == k {
			return true
		}
	}
	return false
}

func (f *refKeyFrame) add(k string) {
	if f.set == nil && len(f.keys) < 16 {
		f.keys = append(f.keys, k)
		return
	}
	if f.set == nil {
		f.set = make(map[string]struct{}, 32)
		for _, x := range f.keys {
			f.set[x] = struct{}{}
		}
		f.keys = nil
	}
	f.set[k] = struct{}{}
}

// FuzzDuplicateKey: on valid JSON, DuplicateKey says what the reference
// says.
func FuzzDuplicateKey(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":{"x":1,"y":2,"x":3}}`, `{"\u0061":1,"a":2}`, `{"k":"\"a\":","a":1,"k":0}`,
		`[{"a":1},{"a":1}]`, `{"a":"\\","b":{"c\"":1,"c\u0022":2}}`,
		`{` + strings.Repeat(`"k":1,`, 0) + `"a0":0,"a1":1,"a2":2,"a3":3,"a4":4,"a5":5,"a6":6,"a7":7,"a8":8,"a9":9,"b0":0,"b1":1,"b2":2,"b3":3,"b4":4,"b5":5,"b6":6,"b\u0030":7}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		k, off, ok := DuplicateKey(b)
		wk, woff, wok := refDuplicateKey(b)
		if k != wk || off != woff || ok != wok {
			t.Fatalf("%s: got %q at %d (%v), want %q at %d (%v)", b, k, off, ok, wk, woff, wok)
		}
	})
}
