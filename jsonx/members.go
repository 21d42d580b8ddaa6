package jsonx

import (
	"fmt"

	"github.com/tidwall/gjson"
)

// Members calls fn with each member of the JSON object obj, in source order,
// with the value's raw bytes. It fails when obj is not an object.
func Members(obj []byte, fn func(key string, val []byte)) error {
	r := gjson.ParseBytes(obj)
	if !r.IsObject() {
		return fmt.Errorf("not a JSON object")
	}
	r.ForEach(func(k, v gjson.Result) bool {
		fn(k.String(), rawOf(obj, v))
		return true
	})
	return nil
}

// Elements calls fn with each element of the JSON array arr, in order.
func Elements(arr []byte, fn func(i int, val []byte)) error {
	r := gjson.ParseBytes(arr)
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
