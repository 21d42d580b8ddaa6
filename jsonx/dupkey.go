package jsonx

import (
	"bytes"
	"encoding/json"
	"sync"
)

// DuplicateKey finds the first object in the JSON text b that has the same
// key twice, and returns that key and the byte offset of its second use.
// Readers disagree about such an object: JavaScript's JSON.parse and Python
// keep the last value, gjson (and so sesstool's model) the first. b must
// already be valid JSON. The scan is iterative, so any nesting depth is safe.
//
// It runs on every line validate reads, so it allocates nothing for an
// ordinary line: keys are compared where they lie in b (decoded only when
// one of the two has an escape), strings are skipped with IndexByte, and
// the scan's stack is reused from line to line.
func DuplicateKey(b []byte) (key string, offset int, found bool) {
	s := dupScans.Get().(*dupScan)
	defer dupScans.Put(s)
	s.frames, s.keys = s.frames[:0], s.keys[:0]
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{':
			s.frames = append(s.frames, keyFrame{obj: true, expectKey: true, first: len(s.keys)})
		case '[':
			s.frames = append(s.frames, keyFrame{first: len(s.keys)})
		case '}', ']':
			if n := len(s.frames); n > 0 {
				s.keys = s.keys[:s.frames[n-1].first]
				s.frames = s.frames[:n-1]
			}
		case ',':
			if n := len(s.frames); n > 0 && s.frames[n-1].obj {
				s.frames[n-1].expectKey = true
			}
		case '"':
			end := skipString(b, i)
			if end < 0 {
				end = len(b)
			}
			if n := len(s.frames); n > 0 && s.frames[n-1].obj && s.frames[n-1].expectKey {
				f := &s.frames[n-1]
				f.expectKey = false
				k := keySpan{i, end, bytes.IndexByte(b[i:end], '\\') >= 0}
				if f.has(b, s.keys[f.first:], k) {
					return keyText(b[i:end]), i, true
				}
				f.add(b, &s.keys, k)
			}
			i = end - 1
		}
	}
	return "", 0, false
}

var dupScans = sync.Pool{New: func() any { return new(dupScan) }}

// dupScan is DuplicateKey's stack: the open objects and arrays, and the keys
// of every open object (each frame's from its first on).
type dupScan struct {
	frames []keyFrame
	keys   []keySpan
}

// keySpan is a quoted key in b, and whether it has an escape.
type keySpan struct {
	from, to int
	esc      bool
}

// keyFrame is one open object or array. An object with many keys also
// keeps them, decoded, in a set.
type keyFrame struct {
	obj       bool
	expectKey bool
	first     int // index of its first key in dupScan.keys
	set       map[string]struct{}
}

// manyKeys is where an object's keys go into a set instead of being
// compared one by one.
const manyKeys = 16

func (f *keyFrame) has(b []byte, keys []keySpan, k keySpan) bool {
	if f.set != nil {
		_, ok := f.set[keyText(b[k.from:k.to])]
		return ok
	}
	for _, x := range keys {
		if sameKey(b, x, k) {
			return true
		}
	}
	return false
}

func (f *keyFrame) add(b []byte, keys *[]keySpan, k keySpan) {
	if f.set == nil && len(*keys)-f.first < manyKeys {
		*keys = append(*keys, k)
		return
	}
	if f.set == nil {
		f.set = make(map[string]struct{}, 2*manyKeys)
		for _, x := range (*keys)[f.first:] {
			f.set[keyText(b[x.from:x.to])] = struct{}{}
		}
	}
	f.set[keyText(b[k.from:k.to])] = struct{}{}
}

// sameKey compares two quoted keys of b as decoded text.
func sameKey(b []byte, x, y keySpan) bool {
	qx, qy := b[x.from:x.to], b[y.from:y.to]
	if !x.esc && !y.esc {
		return bytes.Equal(qx, qy)
	}
	return keyText(qx) == keyText(qy)
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
