package jsonx

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// listed records what Members or Elements hands fn, one string per call.
func listed(b []byte, each func([]byte, func(string, []byte)) error) []string {
	var out []string
	err := each(b, func(k string, v []byte) { out = append(out, fmt.Sprintf("%q=%s", k, v)) })
	if err != nil {
		out = append(out, "error: "+err.Error())
	}
	return out
}

func members(b []byte, fn func(string, []byte)) error { return Members(b, fn) }
func lenientMembers(b []byte, fn func(string, []byte)) error {
	return membersLenient(b, fn)
}
func elements(b []byte, fn func(string, []byte)) error {
	return Elements(b, func(i int, v []byte) { fn(fmt.Sprint(i), v) })
}
func lenientElements(b []byte, fn func(string, []byte)) error {
	return elementsLenient(b, func(i int, v []byte) { fn(fmt.Sprint(i), v) })
}

var memberCases = []string{
	`{}`, ` { } `, `{"a":1}`, `{"a" : "x" , "b":[1,{"c":"]"}],"d":{"e":"}\"{"}}`,
	`{"k\"ey":1,"\u00e9":2,"a\\":"\\"}`, `{"a":1,"a":2}`, "\t{\"a\":null}\n",
	`{"a":1} x`, `{"a":1`, `{"a"}`, `[1,2]`, `"x"`, ``, `{"a":{"b":1}`, `{,}`,
	`[]`, `[1, "a", {"b":[]}, [[]], true, null, -1.5e3]`, ` [ "]" ] `, `[1,`, `{"a":1}`,
}

// TestMembersAgree: the walk hands fn what gjson's ForEach did, on valid
// JSON and on text that is not (where gjson reads it).
func TestMembersAgree(t *testing.T) {
	for _, c := range memberCases {
		if got, want := listed([]byte(c), members), listed([]byte(c), lenientMembers); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("Members(%s) = %q, gjson gives %q", c, got, want)
		}
		if got, want := listed([]byte(c), elements), listed([]byte(c), lenientElements); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("Elements(%s) = %q, gjson gives %q", c, got, want)
		}
	}
}

// FuzzMembersAgree: on any valid JSON, the walk and gjson agree.
func FuzzMembersAgree(f *testing.F) {
	for _, c := range memberCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		if got, want := listed(b, members), listed(b, lenientMembers); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("Members(%s) = %q, gjson gives %q", b, got, want)
		}
		if got, want := listed(b, elements), listed(b, lenientElements); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("Elements(%s) = %q, gjson gives %q", b, got, want)
		}
	})
}

var unquoteCases = []string{
	`""`, `"a"`, `"a\nb"`, `"\\"`, `"\"x\""`, `"a\/b\b\f\r\t"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\ud83d"`,
	`"\ud83dx"`, `"\ud83d\u0041"`, `"a\qb"`, `"a\"`, `"é\n"`, `"x" `, ` "x"`, `"a"b"`, `"a\\"b"`,
	"\"a\x01b\"", `1`, `null`, `{"a":1}`, `"`, `"\\\\"`, `"tab\\tnot"`,
}

// TestUnquoteAgrees: Unquote reads a string token as gjson does, on valid
// tokens and on text that is not one.
func TestUnquoteAgrees(t *testing.T) {
	for _, c := range unquoteCases {
		checkUnquote(t, []byte(c))
	}
}

func checkUnquote(t *testing.T, q []byte) {
	t.Helper()
	r := gjson.ParseBytes(q)
	got, ok := Unquote(q)
	if got != r.Str || ok != (r.Type == gjson.String) {
		t.Errorf("Unquote(%s) = %q, %v; gjson gives %q, %v", q, got, ok, r.Str, r.Type == gjson.String)
	}
}

// FuzzUnquote: Unquote and gjson agree on anything.
func FuzzUnquote(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, q []byte) { checkUnquote(t, q) })
}
