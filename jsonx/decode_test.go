package jsonx

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var decodeCases = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e-3`, `-12E+4`, `true`, `false`, `null`, ` { "a" : [ 1 , "x" , null ] } `,
	`{"a":1,"a":2}`, `"\u00e9\n\t\"\\\/\b\f\r"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ud83d\u0041"`, `"\udc00\ud83d\ude00x"`,
	`{"type":"message","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`,
	`[[1,[2,3],{"a":[4,{"b":[]}]}],[],[[]],{"x":{"y":{}}}]`, `{"a":[1,2,3,4,5,6,7,8,9,10],"b":{"c":1,"d":2}}`,
	// invalid
	``, ` `, `{`, `}`, `[1,]`, `{"a":1,}`, `{"a"}`, `{a:1}`, `01`, `1.`, `.5`, `-`, `1e`, `1e+`, `+1`, `tru`, `nul`, `truex`,
	`"a`, "\"a\tb\"", `"\x"`, `"\u12"`, `"\u12G4"`, `[1 2]`, `{} {}`, `{"a":1}x`, `NaN`, `[`, `"\`, `{"a":}`, `{"a" 1}`,
}

// TestDecodeMatchesEncodingJSON: decode accepts exactly what json.Valid
// accepts and yields what the schema library's own decoder yields.
func TestDecodeMatchesEncodingJSON(t *testing.T) {
	for _, c := range decodeCases {
		checkDecode(t, []byte(c))
	}
	// one decoder for every case, twice: reused maps, slices and arena
	// must not leak from one text into the next
	var d Decoder
	for range 2 {
		for _, c := range decodeCases {
			got, ok := d.Decode([]byte(c))
			if !ok {
				continue
			}
			want, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(c)))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("reused decoder: decode(%q) = %#v, want %#v", c, got, want)
			}
		}
	}
	deep := bytes.Repeat([]byte("["), maxDepth+1)
	checkDecode(t, append(deep, bytes.Repeat([]byte("]"), maxDepth+1)...))
}

func FuzzDecode(f *testing.F) {
	for _, c := range decodeCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if utf8.Valid(b) {
			checkDecode(t, b)
		}
	})
}

func checkDecode(t *testing.T, b []byte) {
	t.Helper()
	got, ok := Decode(b)
	want := json.Valid(b)
	if ok != want {
		t.Fatalf("Decode(%q) ok = %v, json.Valid = %v", b, ok, want)
	}
	if v := Valid(b); v != want {
		t.Fatalf("Valid(%q) = %v, json.Valid = %v", b, v, want)
	}
	if !ok {
		return
	}
	lib, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("UnmarshalJSON(%q): %v", b, err)
	}
	if !reflect.DeepEqual(got, lib) {
		t.Fatalf("Decode(%q) = %#v, want %#v", b, got, lib)
	}
}
