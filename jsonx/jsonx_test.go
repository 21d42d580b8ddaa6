package jsonx

import (
	"bytes"
	"strings"
	"testing"
)

func TestMerge(t *testing.T) {
	tests := []struct {
		name, raw, canon, want string
	}{
		{"identical", `{"a":1}`, `{"a":1}`, `{"a":1}`},
		{"key order and number spelling kept", `{"b":1.0,"a":"\u0041"}`, `{"a":"A","b":1}`, `{"b":1.0,"a":"\u0041"}`},
		{"changed value spelled anew", `{"b":1.0,"a":"x"}`, `{"a":"y","b":1}`, `{"b":1.0,"a":"y"}`},
		{"dropped member", `{"a":1,"b":2}`, `{"a":1}`, `{"a":1}`},
		{"added member appended", `{"a":1}`, `{"c":3,"a":1}`, `{"a":1,"c":3}`},
		{"nested change keeps siblings", `{"m":{"z":1,"role":"hookMessage","x":[1, 2]}}`, `{"m":{"role":"custom","x":[1,2],"z":1}}`, `{"m":{"z":1,"role":"custom","x":[1, 2]}}`},
		{"array element change", `[{"k":1.50},{"k":2}]`, `[{"k":1.5},{"k":3}]`, `[{"k":1.50},{"k":3}]`},
		{"array length change", `[1,2]`, `[1,2,3]`, `[1,2,3]`},
		{"type change", `{"a":"1"}`, `{"a":1}`, `{"a":1}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Merge([]byte(tc.raw), []byte(tc.canon))); got != tc.want {
				t.Errorf("Merge(%s, %s) = %s, want %s", tc.raw, tc.canon, got, tc.want)
			}
		})
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":[true,null]}`, `{"b":[true,null],"a":1.0}`, true},
		{`"\u00e9"`, `"é"`, true},
		{`1e2`, `100`, true},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`"1"`, `1`, false},
		{`12345678901234567890123`, `12345678901234567890124`, false},
		{`{bad`, `{bad`, true},
		{`{bad`, `{}`, false},
	}
	for _, tc := range tests {
		if got := Equal([]byte(tc.a), []byte(tc.b)); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestAppendString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{"<a href=\"x\">&</a>", `"<a href=\"x\">&</a>"`},
		{"line\nbreak\ttab\r\b\f", `"line\nbreak\ttab\r\b\f"`},
		{"\x01\x1f\x7f", `"\u0001\u001f` + "\x7f" + `"`},
		{"back\\slash", `"back\\slash"`},
		{"\u2028\u2029é😀", "\"\u2028\u2029é😀\""},
		{"bad\xffutf8", "\"bad\ufffdutf8\""},
	}
	for _, tc := range tests {
		if got := string(String(tc.in)); got != tc.want {
			t.Errorf("String(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestObj(t *testing.T) {
	var o Obj
	o.Str("type", "message").Int("n", -3).Float("f", 0.1).Bool("ok", true).Null("z").Raw("r", []byte(`[1]`)).Raw("e", nil)
	want := `{"type":"message","n":-3,"f":0.1,"ok":true,"z":null,"r":[1],"e":null}`
	if got := string(o.Bytes()); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	var empty Obj
	if got := string(empty.Bytes()); got != "{}" {
		t.Errorf("empty object = %s", got)
	}
}

func TestSyntaxError(t *testing.T) {
	tests := []struct {
		in      string
		col     int
		msgPart string
	}{
		{`{"a":1,}`, 8, "invalid JSON"},
		{`{"a":"é" x}`, 10, "invalid JSON"},
		{"{\"a\":\"\xff\"}", 7, "invalid UTF-8"},
		{`{"a":1`, 6, "invalid JSON"},
	}
	for _, tc := range tests {
		col, msg, bad := SyntaxError([]byte(tc.in))
		if !bad || col != tc.col || !strings.Contains(msg, tc.msgPart) {
			t.Errorf("SyntaxError(%q) = %d, %q, %v; want col %d, %q", tc.in, col, msg, bad, tc.col, tc.msgPart)
		}
	}
	if _, _, bad := SyntaxError([]byte(`{"ok":true}`)); bad {
		t.Error("valid JSON reported as bad")
	}
}

func TestMembersKeepsOrderAndRaw(t *testing.T) {
	var keys, vals []string
	err := Members([]byte(`{"z":1.0,"a":{"b":[1, 2]},"m":"\u0041"}`), func(k string, v []byte) {
		keys = append(keys, k)
		vals = append(vals, string(v))
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(keys, ",") != "z,a,m" || strings.Join(vals, "|") != `1.0|{"b":[1, 2]}|"\u0041"` {
		t.Errorf("got keys %v vals %v", keys, vals)
	}
	if err := Members([]byte(`[1]`), func(string, []byte) {}); err == nil {
		t.Error("array accepted as object")
	}
}

// Members reads obj in place: the keys it hands out must be copies, which
// stay the same when obj's memory is reused, and the values sub-slices of obj.
func TestMembersKeysAreCopies(t *testing.T) {
	obj := []byte(`{"alpha":[1],"beta":"x","g\u0061mma":{}}`)
	var keys []string
	var vals [][]byte
	if err := Members(obj, func(k string, v []byte) { keys = append(keys, k); vals = append(vals, v) }); err != nil {
		t.Fatal(err)
	}
	for _, v := range vals {
		if &v[0] != &obj[bytes.Index(obj, v)] {
			t.Errorf("value %s is a copy, not a sub-slice of the object", v)
		}
	}
	for i := range obj {
		obj[i] = 'X'
	}
	if got := strings.Join(keys, ","); got != "alpha,beta,gamma" {
		t.Errorf("keys after the object's memory changed: %s", got)
	}
	var elems []string
	arr := []byte(`[{"a":1}, "s" ,2]`)
	if err := Elements(arr, func(_ int, v []byte) { elems = append(elems, string(v)) }); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(elems, "|"); got != `{"a":1}|"s"|2` {
		t.Errorf("elements: %s", got)
	}
}

func TestDuplicateKey(t *testing.T) {
	for _, c := range []struct {
		in  string
		key string
		off int
	}{
		{`{"a":1,"b":2}`, "", -1},
		{`{"a":1,"a":2}`, "a", 7},
		{`{"a":{"a":1},"b":[{"a":1},{"a":2}]}`, "", -1},
		{`{"a":{"x":1,"y":2,"x":3}}`, "x", 18},
		{`{"\u0061":1,"a":2}`, "a", 12},
		{`{"k":"\"a\":","a":1,"k":0}`, "k", 20},
		{`[` + strings.Repeat(`{"a":[`, 50000) + strings.Repeat(`]}`, 50000) + `]`, "", -1},
	} {
		key, off, found := DuplicateKey([]byte(c.in))
		if found != (c.off >= 0) || key != c.key || (found && off != c.off) {
			t.Errorf("%.40s: got %q at %d (%v), want %q at %d", c.in, key, off, found, c.key, c.off)
		}
	}
}

// TestObjAt: an object started in a buffer that holds other bytes encodes
// the same as one on its own, after them; Has and Extra see only the
// object's own members; Append nests in place.
func TestObjAt(t *testing.T) {
	prefix := []byte(`{"k":1,"a":`)
	for _, tc := range []struct {
		name string
		fill func(o *Obj)
		want string
	}{
		{"empty", func(o *Obj) {}, `{}`},
		{"members", func(o *Obj) { o.Str("a", "x\n").Int("n", 2) }, `{"a":"x\n","n":2}`},
		{"extra after prefix", func(o *Obj) { o.Extra("k", []byte(`3`)) }, `{"k":3}`},
		{"extra repeated", func(o *Obj) { o.Str("k", "v"); o.Extra("k", []byte(`3`)) }, `{"k":"v"}`},
		{"nested", func(o *Obj) {
			o.Append("m", func(dst []byte) []byte { in := ObjAt(dst); in.Str("r", "u"); return in.Bytes() }).Null("z")
		}, `{"m":{"r":"u"},"z":null}`},
	} {
		alone := Obj{}
		tc.fill(&alone)
		at := ObjAt(append([]byte(nil), prefix...))
		tc.fill(&at)
		got := string(at.Bytes())
		if string(alone.Bytes()) != tc.want || got != string(prefix)+tc.want {
			t.Errorf("%s: alone %s, after the prefix %s; want %s", tc.name, alone.Bytes(), got, tc.want)
		}
	}
}
