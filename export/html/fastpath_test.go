package html

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/session"
)

// usageLineJoined is usageLine as it was, the parts built as strings and
// joined: the line written as it goes must be the same.
func usageLineJoined(b *buf, u *session.Usage) {
	if u == nil {
		return
	}
	var parts []string
	part := func(n int64, mark, what string) {
		if n != 0 {
			parts = append(parts, `<span title="`+what+`">`+mark+Thousands(n)+`</span>`)
		}
	}
	part(u.Input, "↑", "input tokens")
	part(u.Output, "↓", "output tokens")
	part(u.CacheRead, "R", "cache read tokens")
	part(u.CacheWrite, "W", "cache write tokens")
	if u.Cost != nil && u.Cost.Total > 0 {
		parts = append(parts, `<span title="cost">`+Money(u.Cost.Total)+`</span>`)
	}
	if len(parts) > 0 {
		b.WriteString(`<p class="usage">` + strings.Join(parts, " ") + `</p>`)
	}
}

func TestUsageLineSameAsJoined(t *testing.T) {
	us := []*session.Usage{nil, {}, {Cost: &session.Cost{}}, {Cost: &session.Cost{Total: -1}}}
	for mask := range 32 {
		u := &session.Usage{}
		if mask&1 != 0 {
			u.Input = 1234567
		}
		if mask&2 != 0 {
			u.Output = -5
		}
		if mask&4 != 0 {
			u.CacheRead = 9
		}
		if mask&8 != 0 {
			u.CacheWrite = 1000
		}
		if mask&16 != 0 {
			u.Cost = &session.Cost{Total: 0.0125}
		}
		us = append(us, u)
	}
	for _, js := range []bool{false, true} {
		for i, u := range us {
			got, want := buf{json: js}, buf{json: js}
			usageLine(&got, u)
			usageLineJoined(&want, u)
			if got.String() != want.String() {
				t.Errorf("usage %d (json %v): %q, want %q", i, js, got.String(), want.String())
			}
		}
	}
}

// jsonBlock writes what codeBlock wrote of prettyJSON's string, valid or
// not, and with its buffer reused from one call to the next.
func TestJSONBlockSameAsPretty(t *testing.T) {
	for _, v := range []string{`{"a":[1,2,{"b":"c\"d"}],"e":{}}`, `[]`, `"x<y>"`, `{"a":`, ``, ` {"a" : 1} `, `{"big":"` + strings.Repeat("é<", 300<<10) + `"}`, `{"a":1}`} {
		for _, js := range []bool{false, true} {
			got, want := buf{json: js}, buf{json: js}
			jsonBlock(&got, json.RawMessage(v))
			codeBlock(&want, prettyJSON(json.RawMessage(v)), "json")
			if got.String() != want.String() {
				t.Errorf("%.40q (json %v):\n got %.200q\nwant %.200q", v, js, got.String(), want.String())
			}
		}
	}
}

// The arguments decoded once for an entry's snippet and card give the
// same node and HTML as decoding them where each needs them.
func TestArgMemoSameAsDecoding(t *testing.T) {
	s := fixture.Session()
	s.Entries = append(s.Entries, &session.Entry{Kind: session.KindMessage, ID: "two", Message: &session.Message{Role: session.RoleAssistant, Content: []session.Block{
		{Type: session.BlockToolCall, ToolCallID: "x1", ToolName: "bash", Arguments: json.RawMessage(`{"command":"ls -la"}`)},
		{Type: session.BlockToolCall, ToolCallID: "x2", ToolName: "read", Arguments: json.RawMessage(`{"path":"a.go","offset":3}`)},
		{Type: session.BlockToolCall, ToolCallID: "x3", ToolName: "read", Arguments: json.RawMessage(`{"path":"a.go","offset":3}`)},
		{Type: session.BlockToolCall, ToolCallID: "x4", ToolName: "other", Arguments: json.RawMessage(`not json`)},
		{Type: session.BlockToolCall, ToolCallID: "x5", ToolName: "other"},
	}}})
	tr, err := transcript.New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	var memo argMemo
	for i, e := range s.Entries {
		memo.reset()
		got, want := buf{json: true, args: &memo}, buf{json: true}
		gn, wn := buildNode(tr, e, i, &got), buildNode(tr, e, i, &want)
		if gn != wn || got.String() != want.String() {
			t.Errorf("entry %d: node %+v, want %+v\nHTML %q\nwant %q", i, gn, wn, got.String(), want.String())
		}
	}
}
