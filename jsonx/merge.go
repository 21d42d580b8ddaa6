package jsonx

import (
	"bytes"

	"github.com/tidwall/gjson"
)

// Merge returns the value of canon spelled as raw wherever the two agree.
//
// A writer encodes an entry from the model (canon) and merges it with the
// bytes the entry was read from (raw): every member or element whose value did
// not change keeps its source spelling (key order, number form, string
// escapes), and only what the model changed is spelled anew. Members canon
// lacks are dropped; members raw lacks are appended in canon's order. Both
// inputs must be compact JSON.
func Merge(raw, canon []byte) []byte {
	out, _ := merge(raw, canon)
	return out
}

// merge returns the merged bytes and whether they are raw unchanged.
func merge(raw, canon []byte) ([]byte, bool) {
	if bytes.Equal(raw, canon) {
		return raw, true
	}
	r, c := gjson.ParseBytes(raw), gjson.ParseBytes(canon)
	switch {
	case r.IsObject() && c.IsObject():
		return mergeObject(raw, canon, r, c)
	case r.IsArray() && c.IsArray():
		return mergeArray(raw, canon, r, c)
	case r.IsObject() || r.IsArray() || c.IsObject() || c.IsArray():
		return canon, false
	case Equal(raw, canon):
		return raw, true
	}
	return canon, false
}

func mergeObject(raw, canon []byte, r, c gjson.Result) ([]byte, bool) {
	type member struct{ key, val []byte }
	var cm []member
	cidx := map[string]int{}
	c.ForEach(func(k, v gjson.Result) bool {
		cidx[k.String()] = len(cm)
		cm = append(cm, member{[]byte(k.Raw), rawOf(canon, v)})
		return true
	})
	used := make([]bool, len(cm))
	same := true
	out := []byte{'{'}
	r.ForEach(func(k, v gjson.Result) bool {
		i, ok := cidx[k.String()]
		if !ok || used[i] {
			same = false // the model dropped it
			return true
		}
		used[i] = true
		val, unchanged := merge(rawOf(raw, v), cm[i].val)
		same = same && unchanged
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, k.Raw...)
		out = append(out, ':')
		out = append(out, val...)
		return true
	})
	for i, m := range cm {
		if used[i] {
			continue
		}
		same = false
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, m.key...)
		out = append(out, ':')
		out = append(out, m.val...)
	}
	if same {
		return raw, true
	}
	return append(out, '}'), false
}

func mergeArray(raw, canon []byte, r, c gjson.Result) ([]byte, bool) {
	ra, ca := r.Array(), c.Array()
	if len(ra) != len(ca) {
		return canon, false
	}
	same := true
	out := []byte{'['}
	for i := range ra {
		val, unchanged := merge(rawOf(raw, ra[i]), rawOf(canon, ca[i]))
		same = same && unchanged
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, val...)
	}
	if same {
		return raw, true
	}
	return append(out, ']'), false
}
