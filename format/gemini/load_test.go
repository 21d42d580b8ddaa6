package gemini

import (
	"strings"
	"testing"
)

// TestLoadAsTheAgent: the records of a JSON Lines file are applied as
// Gemini CLI 0.61.0's loadConversationRecord applies them.
func TestLoadAsTheAgent(t *testing.T) {
	const meta = `{"sessionId":"s","projectHash":"h"}`
	msg := func(id, text string) string {
		return `{"id":"` + id + `","timestamp":"2026-01-01T00:00:00.000Z","type":"user","content":"` + text + `"}`
	}
	cases := []struct {
		name  string
		lines []string
		want  string // id=text, in order
		title string
	}{
		{"the last version wins, in the first place", []string{meta, msg("a", "1"), msg("b", "2"), msg("a", "3")}, "a=3 b=2", ""},
		{"a rewind drops the message and all after", []string{meta, msg("a", "1"), msg("b", "2"), msg("c", "3"), `{"$rewindTo":"b"}`, msg("d", "4")}, "a=1 d=4", ""},
		{"a rewind to an unknown id drops every message", []string{meta, msg("a", "1"), `{"$rewindTo":"zz"}`, msg("b", "2")}, "b=2", ""},
		{"a message after a rewind of it goes last", []string{meta, msg("a", "1"), msg("b", "2"), `{"$rewindTo":"a"}`, msg("b", "5"), msg("a", "6")}, "b=5 a=6", ""},
		{"$set patches the metadata", []string{meta, msg("a", "1"), `{"$set":{"summary":"T"}}`, `{"$set":{"summary":"U","lastUpdated":"x"}}`}, "a=1", "U"},
		{"$set messages replaces every message", []string{meta, msg("a", "1"), `{"$set":{"messages":[` + msg("c", "7") + `,` + msg("d", "8") + `]}}`, msg("a", "9")}, "c=7 d=8 a=9", ""},
		{"a line that is not JSON is skipped", []string{meta, msg("a", "1"), `{"id":"b",`, msg("c", "3")}, "a=1 c=3", ""},
		{"the metadata line's messages are read", []string{`{"sessionId":"s","projectHash":"h","messages":[` + msg("a", "1") + `]}`, msg("b", "2")}, "a=1 b=2", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cv, err := load("t.jsonl", []byte(strings.Join(c.lines, "\n")+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range cv.msgs {
				got = append(got, m.id+"="+m.v.Get("content").String())
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("messages %q, want %q", strings.Join(got, " "), c.want)
			}
			if title := cv.get("summary").String(); title != c.title {
				t.Errorf("summary %q, want %q", title, c.title)
			}
		})
	}
}

// TestStringifyAsJavaScript: migrate spells what it copies as
// JSON.stringify(JSON.parse(...)) does (checked against node by hand:
// node -e 'console.log(JSON.stringify(JSON.parse(process.argv[1])))').
func TestStringifyAsJavaScript(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{ "a" : 1.50, "b": [ 1e3, -0.0, 1E21, 123456789012345678901 ] }`, `{"a":1.5,"b":[1000,0,1e+21,123456789012345680000]}`},
		{`"<&>\u2028\u00e9\/"`, "\"<&>\u2028é/\""},
		{`"tab\there\u0001"`, `"tab\there\u0001"`},
		{`{"k":1,"j":2,"k":3}`, `{"k":3,"j":2}`},
		{`[true,false,null,{}, []]`, `[true,false,null,{},[]]`},
	}
	for _, c := range cases {
		got := string(stringifyString(c.in))
		if got != c.want {
			t.Errorf("stringify(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}
