package jsonx

import "encoding/json"

// DuplicateKey finds the first object in the JSON text b that has the same
// key twice, and returns that key and the byte offset of its second use.
// Readers disagree about such an object: JavaScript's JSON.parse and Python
// keep the last value, gjson (and so sesstool's model) the first. b must
// already be valid JSON. The scan is iterative, so any nesting depth is safe.
func DuplicateKey(b []byte) (key string, offset int, found bool) {
	var stack []keyFrame
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{':
			stack = append(stack, keyFrame{obj: true, expectKey: true})
		case '[':
			stack = append(stack, keyFrame{})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 && stack[n-1].obj {
				stack[n-1].expectKey = true
			}
		case '"':
			end := stringEnd(b, i)
			if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].expectKey {
				f := &stack[n-1]
				f.expectKey = false
				k := keyText(b[i:end])
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
func stringEnd(b []byte, i int) int {
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
func keyText(q []byte) string {
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

// keyFrame is one open object or array; objects remember their keys (a
// slice while few, then a set).
type keyFrame struct {
	obj       bool
	expectKey bool
	keys      []string
	set       map[string]struct{}
}

func (f *keyFrame) has(k string) bool {
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

func (f *keyFrame) add(k string) {
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
