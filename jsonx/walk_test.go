package jsonx

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// walkAll lists what a walk returns, as "key=value" (arrays: "value").
func walkAll(b []byte, arr bool) (out []string, ok, bad bool) {
	w, ok := WalkObject(b)
	if arr {
		w, ok = WalkArray(b)
	}
	for {
		m, more := w.Next()
		if !more {
			break
		}
		s := string(b[m.ValStart:m.ValEnd])
		if m.KeyStart >= 0 {
			s = gjson.ParseBytes(b[m.KeyStart:m.KeyEnd]).Str + "=" + s
		}
		out = append(out, s)
	}
	return out, ok, w.Bad()
}

// gjsonAll is what gjson's ForEach sees, in the same form.
func gjsonAll(b []byte) []string {
	var out []string
	r := gjson.ParseBytes(b)
	r.ForEach(func(k, v gjson.Result) bool {
		s := v.Raw
		if r.IsObject() {
			s = k.Str + "=" + s
		}
		out = append(out, s)
		return true
	})
	return out
}

func TestWalk(t *testing.T) {
	cases := []struct {
		in   string
		arr  bool
		want []string
		bad  bool
	}{
		{`{}`, false, nil, false},
		{` { } `, false, nil, false},
		{`{"a":1}`, false, []string{"a=1"}, false},
		{`{"a" : "x\"}" , "b":[1,{"c":"]"}],"c":{"d":{}} ,"e":null,"f":-1.5e3,"g":true}`, false,
			[]string{`a="x\"}"`, `b=[1,{"c":"]"}]`, `c={"d":{}}`, "e=null", "f=-1.5e3", "g=true"}, false},
		{`{"k\u0065y":"v\\","z":"\\\""}`, false, []string{`key="v\\"`, `z="\\\""`}, false},
		{`[1, "a", [], {"b":2}]`, true, []string{"1", `"a"`, "[]", `{"b":2}`}, false},
		{`[]`, true, nil, false},
		{`{"a":1,}`, false, []string{"a=1"}, true},
		{`{"a":1`, false, []string{"a=1"}, true},
		{`{"a":"unterminated}`, false, nil, true},
		{`{"a":[1,2}`, false, []string{"a=[1,2}"}, true}, // brackets are not paired: exact only for valid JSON
		{`{"a" 1}`, false, nil, true},
		{`{a:1}`, false, nil, true},
		{`{"a":}`, false, nil, true},
		{`{"a":1 "b":2}`, false, []string{"a=1"}, true},
	}
	for _, c := range cases {
		got, _, bad := walkAll([]byte(c.in), c.arr)
		if fmt.Sprint(got) != fmt.Sprint(c.want) || bad != c.bad {
			t.Errorf("%s: got %q bad=%v, want %q bad=%v", c.in, got, bad, c.want, c.bad)
		}
	}
	if _, ok := WalkObject([]byte(`[1]`)); ok {
		t.Errorf("an array walked as an object")
	}
	if _, ok := WalkArray([]byte(` "x"`)); ok {
		t.Errorf("a string walked as an array")
	}
}

func TestKeyIsAndValue(t *testing.T) {
	b := []byte(`{"typ\u0065":"a\u00e9","n":12,"o":{"x":1}}`)
	w, _ := WalkObject(b)
	var ms []Member
	for m, ok := w.Next(); ok; m, ok = w.Next() {
		ms = append(ms, m)
	}
	if len(ms) != 3 || !ms[0].KeyIs(b, "type") || ms[0].KeyIs(b, "typ") || !ms[1].KeyIs(b, "n") {
		t.Fatalf("members %v", ms)
	}
	for i, k := range []string{"type", "n", "o"} {
		want := gjson.GetBytes(b, k)
		got := ms[i].Value(b)
		if got.Type != want.Type || got.Str != want.Str || got.Raw != want.Raw || got.Num != want.Num {
			t.Errorf("%s: got %+v, want %+v", k, got, want)
		}
	}
	if w.Close() != len(b)-1 || w.Open() != 0 || w.Count() != 3 {
		t.Errorf("open %d close %d count %d", w.Open(), w.Close(), w.Count())
	}
}

// FuzzWalk: on any input the walk ends without a panic; on a valid object
// or array it returns exactly what gjson's ForEach returns, and ends clean.
func FuzzWalk(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[1,[2],{"b":"c\"d"}]`, `{"a":{"b":[1,2,{"c":"\\"}]}, "d" : "e"}`, `{"x":`, `[`, `{"a":"\u00e9\\\\"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, arr := range []bool{false, true} {
			got, ok, bad := walkAll(b, arr)
			if !ok || !json.Valid(b) {
				continue
			}
			if bad {
				t.Fatalf("valid %s: walk went bad after %q", b, got)
			}
			if want := gjsonAll(b); strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				t.Fatalf("%s:\n got %q\nwant %q", b, got, want)
			}
		}
	})
}
