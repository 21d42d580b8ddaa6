package redact

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Secrets in tool calls are JSON-escaped: a .env file written by a Write
// call is one JSON string whose lines are joined by \n, a Codex call's
// arguments may be a JSON string holding JSON. Scanned as written, the n
// of a \n escape defeats a rule's \b and a \" is not among the endings a
// rule allows, so half of such secrets leaked. So each string of a JSON
// value is decoded and scanned as the text it stands for (and a string
// that is itself JSON, decoded again), and only what was masked is
// re-encoded: everything else stays byte for byte, and the value stays
// valid JSON.

// text masks s, and, when s is a JSON document (a tool's output often is),
// the strings inside it as decoded text too.
func (r *Redactor) text(s string) string {
	s = r.String(s)
	if looksJSON(s) {
		if out, ok := r.jsonStrings([]byte(s), 0); ok {
			s = string(out)
		}
	}
	return s
}

// looksJSON is a cheap test before a parse: an object or an array.
func looksJSON(s string) bool {
	t := strings.TrimSpace(s)
	return len(t) >= 2 && (t[0] == '{' && t[len(t)-1] == '}' || t[0] == '[' && t[len(t)-1] == ']') && json.Valid([]byte(t))
}

// maxNesting bounds JSON inside JSON strings inside JSON…: deeper than
// this, a string is scanned as decoded text only.
const maxNesting = 4

// jsonStrings returns v, valid JSON, with each string literal decoded,
// masked as text (recursively when it holds JSON) and re-encoded when
// something in it was masked. ok is false when v is not what it seemed
// (an unterminated string), and v is then left to the scan as written.
func (r *Redactor) jsonStrings(v []byte, depth int) ([]byte, bool) {
	var out []byte // nil until something changes
	last := 0
	for i := 0; i < len(v); i++ {
		if v[i] != '"' {
			continue
		}
		j := i + 1
		esc := false
		for ; j < len(v); j++ {
			if v[j] == '\\' {
				j++
				esc = true
				continue
			}
			if v[j] == '"' {
				break
			}
		}
		if j >= len(v) {
			return v, false
		}
		lit := v[i : j+1]
		i = j
		var s string
		if esc {
			if json.Unmarshal(lit, &s) != nil {
				continue
			}
		} else {
			s = string(lit[1 : len(lit)-1])
		}
		masked := r.String(s)
		if depth < maxNesting && looksJSON(masked) {
			if in, ok := r.jsonStrings([]byte(masked), depth+1); ok {
				masked = string(in)
			}
		}
		if masked == s {
			continue
		}
		out = append(out, v[last:i-len(lit)+1]...)
		out = append(out, encodeString(masked)...)
		last = i + 1
	}
	if out == nil {
		return v, true
	}
	return append(out, v[last:]...), true
}

// encodeString writes s as a JSON string without escaping <, > and &, as
// agents write them.
func encodeString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
