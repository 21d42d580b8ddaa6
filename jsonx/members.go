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
// gjson reads obj in place (view): readers walk each level of a line (the
// line, the message, its content, each block), and gjson.ParseBytes copied
// the whole object again at every level, a quarter of the time of reading a
// session. Nothing that points into obj outlives the call but the values
// handed to fn, which are sub-slices of obj anyway.
func Members(obj []byte, fn func(key string, val []byte)) error {
	r := gjson.Parse(view(obj))
	if !r.IsObject() {
		return fmt.Errorf("not a JSON object")
	}
	r.ForEach(func(k, v gjson.Result) bool {
		// the key may point into obj: a copy, so that a key kept (in
		// Extras) never keeps the line alive
		fn(strings.Clone(k.String()), rawOf(obj, v))
		return true
	})
	return nil
}

// Elements calls fn with each element of the JSON array arr, in order.
func Elements(arr []byte, fn func(i int, val []byte)) error {
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
