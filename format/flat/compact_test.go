package flat

import (
	"bytes"
	"encoding/json"
	"testing"
)

var compactCases = []string{`{}`, `{"a":1}`, `{ "a" : 1 }`, `{"a":"x y\" z"}`, `{"a":"\\"} `, "[1,\n2]",
	`{"a":[1,{"b":"\t"}]}`, `{"a":`, `nope`, `"s p"`, ``, `{"a":"\\\" "}`}

// TestCompact: compact gives json.Compact's bytes, or {} where it fails.
func TestCompact(t *testing.T) {
	for _, c := range compactCases {
		checkCompact(t, []byte(c))
	}
}

func FuzzCompact(f *testing.F) {
	for _, c := range compactCases {
		f.Add([]byte(c))
	}
	f.Fuzz(checkCompact)
}

func checkCompact(t *testing.T, raw []byte) {
	var buf bytes.Buffer
	want := []byte("{}")
	if json.Compact(&buf, raw) == nil {
		want = buf.Bytes()
	}
	if got := compact(raw); !bytes.Equal(got, want) {
		t.Errorf("compact(%q) = %q, want %q", raw, got, want)
	}
}
