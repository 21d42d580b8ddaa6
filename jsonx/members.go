package jsonx

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// Members calls fn with each member of the JSON object obj, in source order,
// with the value's raw bytes (a sub-slice of obj). It fails when obj is not
// an object.
//
// A valid object is walked by offsets (Walker): nested values are skipped by
// their quotes and brackets, and nothing is decoded but keys with escapes.
// gjson's ForEach, used before, parsed every value to find its end, and
// readers walk each level of a line (the line, the message, its content,
// each block), so a line's bytes were scanned once per level. Only when the
// walk finds something that is not JSON does gjson read obj, so malformed
// input is handled as leniently as it always was.
func Members(obj []byte, fn func(key string, val []byte)) error {
	var buf [16]Member
	ms, ok := collect(obj, '{', buf[:0])
	if !ok {
		return membersLenient(obj, fn)
	}
	for _, m := range ms {
		// a copy, so that a key kept (in Extras) never keeps the line alive
		fn(keyString(obj[m.KeyStart:m.KeyEnd]), obj[m.ValStart:m.ValEnd])
	}
	return nil
}

// Elements calls fn with each element of the JSON array arr, in order.
func Elements(arr []byte, fn func(i int, val []byte)) error {
	var buf [16]Member
	ms, ok := collect(arr, '[', buf[:0])
	if !ok {
		return elementsLenient(arr, fn)
	}
	for i, m := range ms {
		fn(i, arr[m.ValStart:m.ValEnd])
	}
	return nil
}

// collect returns every member of the object or array b, or false when b
// is not one, or not valid as far as a walk can tell.
func collect(b []byte, open byte, ms []Member) ([]Member, bool) {
	var w Walker
	var ok bool
	if open == '{' {
		w, ok = WalkObject(b)
	} else {
		w, ok = WalkArray(b)
	}
	if !ok {
		return nil, false
	}
	for {
		m, more := w.Next()
		if !more {
			break
		}
		ms = append(ms, m)
	}
	// only whitespace may follow the value, as gjson reads it
	if w.Bad() || SkipSpace(b, w.Close()+1) != len(b) {
		return nil, false
	}
	return ms, true
}

// keyString is a quoted key's text, unescaped as gjson unescapes it.
func keyString(q []byte) string {
	raw := q[1 : len(q)-1]
	for _, c := range raw {
		if c == '\\' {
			return strings.Clone(gjson.ParseBytes(q).Str)
		}
	}
	return string(raw)
}

// membersLenient and elementsLenient read what the walk refused, with
// gjson, as Members and Elements always did.
func membersLenient(obj []byte, fn func(key string, val []byte)) error {
	r := gjson.Parse(view(obj))
	if !r.IsObject() {
		return fmt.Errorf("not a JSON object")
	}
	r.ForEach(func(k, v gjson.Result) bool {
		fn(strings.Clone(k.String()), rawOf(obj, v))
		return true
	})
	return nil
}

func elementsLenient(arr []byte, fn func(i int, val []byte)) error {
	r := gjson.Parse(view(arr))
	if !r.IsArray() {
		return fmt.Errorf("not a JSON array")
	}
	i := 0
	r.ForEach(func(_, v gjson.Result) bool {
		fn(i, rawOf(arr, v))
		i++
		return true
	})
	return nil
}

// rawOf returns v's bytes as a sub-slice of src when gjson knows the offset,
// so no copy is made.
func rawOf(src []byte, v gjson.Result) []byte {
	if v.Index > 0 && v.Index+len(v.Raw) <= len(src) {
		return src[v.Index : v.Index+len(v.Raw)]
	}
	return []byte(v.Raw)
}
