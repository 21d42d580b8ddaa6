package migrate

// The splicing functions the migration used before it recorded edits and
// applied them in one pass (line.go): each re-reads the line with gjson and
// copies it. They are kept as the reference the one-pass rewrite is
// compared with (reference_test.go), and as helpers for the tests.

import (
	"bytes"

	"github.com/tidwall/gjson"
)

// member is one top-level member of a JSON object line, as byte offsets.
type member struct {
	key              string
	keyStart         int // the opening quote of the key
	valStart, valEnd int // the value's bytes
}

// members lists the top-level members of obj in source order. ok is false
// when obj is not a JSON object.
func members(obj []byte) (ms []member, ok bool) {
	r := gjson.ParseBytes(obj)
	if !r.IsObject() {
		return nil, false
	}
	ok = true
	r.ForEach(func(k, v gjson.Result) bool {
		if k.Index <= 0 || v.Index <= 0 || v.Index+len(v.Raw) > len(obj) {
			ok = false // gjson could not place it; never splice blind
			return false
		}
		ms = append(ms, member{key: k.String(), keyStart: k.Index, valStart: v.Index, valEnd: v.Index + len(v.Raw)})
		return true
	})
	return ms, ok
}

func find(ms []member, key string) int {
	for i, m := range ms {
		if m.key == key {
			return i
		}
	}
	return -1
}

// setMember returns obj with the top-level member key set to the JSON value
// val. An existing member keeps its place and only its value changes (as a
// JavaScript assignment does); a new member goes last, as JavaScript's
// insertion order puts a newly assigned property and JSON.stringify writes it.
func setMember(obj []byte, key string, val []byte) []byte {
	ms, ok := members(obj)
	if !ok {
		return obj
	}
	if i := find(ms, key); i >= 0 {
		return splice(obj, ms[i].valStart, ms[i].valEnd, val)
	}
	end := bytes.LastIndexByte(obj, '}')
	if end < 0 {
		return obj
	}
	ins := make([]byte, 0, len(key)+len(val)+4)
	if len(ms) > 0 {
		ins = append(ins, ',')
	}
	ins = appendKey(ins, key)
	ins = append(ins, val...)
	// Insert right after the last value (or the opening brace), so any
	// whitespace before the closing brace stays where it was.
	at := bytes.IndexByte(obj, '{') + 1
	if len(ms) > 0 {
		at = ms[len(ms)-1].valEnd
	}
	return splice(obj, at, at, ins)
}

// deleteMember returns obj without the top-level member key, taking one
// neighbouring comma with it.
func deleteMember(obj []byte, key string) []byte {
	ms, ok := members(obj)
	if !ok {
		return obj
	}
	i := find(ms, key)
	if i < 0 {
		return obj
	}
	switch {
	case i > 0: // from the end of the previous value: drops ",<key>:<value>"
		return splice(obj, ms[i-1].valEnd, ms[i].valEnd, nil)
	case len(ms) > 1: // the first of several: drops "<key>:<value>,"
		return splice(obj, ms[0].keyStart, ms[1].keyStart, nil)
	default: // the only member
		return splice(obj, ms[0].keyStart, ms[0].valEnd, nil)
	}
}

// setPath replaces the value at a gjson path (which must exist) with val.
func setPath(obj []byte, path string, val []byte) []byte {
	r := gjson.GetBytes(obj, path)
	if !r.Exists() || r.Index <= 0 || r.Index+len(r.Raw) > len(obj) {
		return obj
	}
	return splice(obj, r.Index, r.Index+len(r.Raw), val)
}

func splice(b []byte, from, to int, ins []byte) []byte {
	out := make([]byte, 0, len(b)-(to-from)+len(ins))
	out = append(out, b[:from]...)
	out = append(out, ins...)
	return append(out, b[to:]...)
}

func appendKey(b []byte, key string) []byte {
	b = append(b, '"')
	b = append(b, key...) // only our own plain ASCII keys come here
	return append(b, '"', ':')
}
