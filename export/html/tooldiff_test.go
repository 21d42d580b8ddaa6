package html

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

func TestToolDiff(t *testing.T) {
	const piDiff = `   1 package main\n-  3 func main() {}\n+  3 func main() {\n+  4 }\n     ...\n  12 // end`
	for _, tc := range []struct {
		name, details string
		ok            bool
		rest          string
	}{
		{"pi's diff alone", `{"diff":"` + piDiff + `"}`, true, ""},
		{"pi's diff and more", `{"diff":"` + piDiff + `","firstChangedLine":3}`, true, `{"firstChangedLine":3}`},
		{"a unified diff", `{"diff":"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b"}`, false, ""},
		{"context only", `{"diff":"  1 a\n  2 b"}`, false, ""},
		{"a number without text", `{"diff":"+12"}`, false, ""},
		{"not a string", `{"diff":["+1 a"]}`, false, ""},
		{"no diff", `{"truncation":{}}`, false, ""},
		{"not an object", `[1]`, false, ""},
		{"none", ``, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diff, rest, ok := toolDiff(json.RawMessage(tc.details))
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				if string(rest) != tc.details || diff != "" {
					t.Errorf("refused, but gave %q and details %s", diff, rest)
				}
				return
			}
			var want string
			if err := json.Unmarshal([]byte(`"`+piDiff+`"`), &want); err != nil {
				t.Fatal(err)
			}
			if diff != want || string(rest) != tc.rest {
				t.Errorf("got %q and details %s; want %q and %s", diff, rest, want, tc.rest)
			}
		})
	}
}

// An edit whose result holds the tool's own diff shows it, numbered by the
// file's lines in the old and the new file, and the details without it; one
// whose details hold another kind of diff shows the diff of its arguments
// and the details whole.
func TestToolDiffShown(t *testing.T) {
	render := func(details string) string {
		call := session.Block{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "edit",
			Arguments: json.RawMessage(`{"path":"main.go","oldText":"func main() {}","newText":"func main() {\n}"}`)}
		res := &session.Entry{Message: &session.Message{Role: session.RoleTool, ToolCallID: "c1",
			Content: []session.Block{{Type: session.BlockText, Text: "Edited main.go"}}, Details: json.RawMessage(details)}}
		tr := &transcript.Transcript{Results: map[string]*session.Entry{"c1": res}}
		var b buf
		toolCall(&b, tr, call)
		return b.String()
	}
	numbers := regexp.MustCompile(`<(span|del|ins)><i(?: data-n=(\d+))?></i><i(?: data-n=(\d+))?></i>(.)([^\n]*)`)
	lines := func(h string) []string {
		var out []string
		for _, m := range numbers.FindAllStringSubmatch(h, -1) {
			out = append(out, strings.Join(m[1:], " "))
		}
		return out
	}

	h := render(`{"diff":"  9 package main\n-10 func main() {}\n+10 func main() {\n+11 }\n    ...\n 20 // end","firstChangedLine":10}`)
	want := []string{"span 9 9   package main", "del 10  - func main() {}", "ins  10 + func main() {", "ins  11 + }", "span     ...", "span 20 21   // end"}
	if got := lines(h); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("tool's diff shown as\n%q\nwant\n%q", got, want)
	}
	if !strings.Contains(h, `<summary>details</summary>`) || !strings.Contains(h, "firstChangedLine") || strings.Contains(h, "&#34;diff&#34;") {
		t.Errorf("the details fold should hold firstChangedLine and not the diff:\n%s", h)
	}
	if h := render(`{"diff":"  9 package main\n-10 func main() {}\n+10 func main() {\n+11 }"}`); strings.Contains(h, "<summary>details</summary>") {
		t.Errorf("details holding only the diff shown again in a fold:\n%s", h)
	}

	h = render(`{"diff":"@@ -1 +1,2 @@\n-func main() {}\n+func main() {\n+}"}`)
	want = []string{"del 1  - func main() {}", "ins  1 + func main() {", "ins  2 + }"}
	if got := lines(h); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("another diff's edit shown as\n%q\nwant the arguments' diff\n%q", got, want)
	}
	if !strings.Contains(h, "&#34;diff&#34;") {
		t.Errorf("details not in the tool's form are not shown whole:\n%s", h)
	}
}
