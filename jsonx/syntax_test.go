package jsonx

import "testing"

func TestSyntaxErrorColumns(t *testing.T) {
	cases := []struct {
		in  string
		col int
		msg string
		bad bool
	}{
		{`{"a":1}`, 0, "", false},
		{`{"a":"caf` + "\xe9" + `"}`, 10, "invalid UTF-8", true}, // inside a string: json.Valid alone accepts it
		{`{"a":,}`, 6, "", true},
		{`{"a":"` + "\xff", 7, "invalid UTF-8", true},
	}
	for _, c := range cases {
		col, msg, bad := SyntaxError([]byte(c.in))
		if bad != c.bad || col != c.col || (c.msg != "" && msg != c.msg) {
			t.Errorf("%q: got (%d, %q, %v), want (%d, %q, %v)", c.in, col, msg, bad, c.col, c.msg, c.bad)
		}
	}
}
