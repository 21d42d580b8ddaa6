package gemini

import (
	"strconv"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/tidwall/gjson"
)

// stringify appends v as JavaScript's JSON.stringify(JSON.parse(v.Raw))
// spells it: compact, members in their order (a repeated key keeps its
// first place and its last value, as JSON.parse leaves it), strings
// escaped as JavaScript escapes them, numbers as a double prints. Gemini
// CLI writes its records so; migrate writes what it would write.
func stringify(dst []byte, v gjson.Result) []byte {
	switch v.Type {
	case gjson.String:
		return jsonx.AppendString(dst, v.String())
	case gjson.Number:
		f, err := strconv.ParseFloat(v.Raw, 64)
		if err != nil {
			return append(dst, v.Raw...)
		}
		if f == 0 {
			f = 0 // JSON.stringify(-0) is "0"
		}
		return jsonx.AppendFloat(dst, f)
	case gjson.True:
		return append(dst, "true"...)
	case gjson.False:
		return append(dst, "false"...)
	case gjson.Null:
		return append(dst, "null"...)
	}
	if v.IsArray() {
		dst = append(dst, '[')
		for i, x := range v.Array() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = stringify(dst, x)
		}
		return append(dst, ']')
	}
	if !v.IsObject() {
		return append(dst, "null"...)
	}
	var keys []string
	vals := map[string]gjson.Result{}
	v.ForEach(func(k, x gjson.Result) bool {
		if _, seen := vals[k.String()]; !seen {
			keys = append(keys, k.String())
		}
		vals[k.String()] = x
		return true
	})
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, k)
		dst = append(dst, ':')
		dst = stringify(dst, vals[k])
	}
	return append(dst, '}')
}

// stringifyString is stringify of a JSON text.
func stringifyString(s string) []byte { return stringify(nil, gjson.Parse(s)) }
