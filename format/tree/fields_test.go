package tree

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

var fieldNames = [nFields]string{fType: "type", fTimestamp: "timestamp", fVersion: "version", fID: "id", fParentID: "parentId",
	fMessage: "message", fFirstKeptEntryID: "firstKeptEntryId", fFirstKeptEntryIndex: "firstKeptEntryIndex", fFromID: "fromId", fTargetID: "targetId"}

func sameResult(a, b gjson.Result) bool {
	return a.Type == b.Type && a.Raw == b.Raw && a.Str == b.Str && a.Num == b.Num
}

// checkFields fails unless the one-walk lookups give what the gjson lookups
// they replace give, on the valid JSON object line.
func checkFields(t *testing.T, line []byte) {
	t.Helper()
	f := readFields(line)
	for k, name := range fieldNames {
		if want := gjson.GetBytes(line, name); !sameResult(f.v[k], want) {
			t.Fatalf("%s in %s: got %+v, want %+v", name, line, f.v[k], want)
		}
	}
	msg := gjson.GetBytes(line, "message")
	if !msg.IsObject() {
		return
	}
	if string(f.message) != msg.Raw {
		t.Fatalf("message bytes %q, want %q", f.message, msg.Raw)
	}
	m := readMessage(f.message)
	role := msg.Get("role")
	if !sameResult(m.role, role) {
		t.Fatalf("role in %s: got %+v, want %+v", line, m.role, role)
	}
	switch role.String() {
	case "toolResult":
		if want := msg.Get("toolCallId"); !sameResult(m.toolCallID, want) {
			t.Fatalf("toolCallId in %s: got %+v, want %+v", line, m.toolCallID, want)
		}
	case "assistant":
		var got, want []string
		eachToolCall(m.content, func(id string) { got = append(got, id) })
		msg.Get("content").ForEach(func(_, b gjson.Result) bool {
			if b.Get("type").String() == "toolCall" {
				if id := b.Get("id"); id.Type == gjson.String {
					want = append(want, id.Str)
				}
			}
			return true
		})
		if !slices.Equal(got, want) {
			t.Fatalf("tool calls in %s: got %q, want %q", line, got, want)
		}
	}
}

// TestFieldsLikeGjson runs the comparison over every line of the test
// sessions and over hand-made lines with escaped keys, duplicate keys,
// odd types and fields after a message's content.
func TestFieldsLikeGjson(t *testing.T) {
	lines := []string{
		`{"typ\u0065":"message","id":"a","id":"b","message":{"content":[{"id":"c1","type":"toolCall"},{"type":"text","id":"x"},{"type":"toolCall","id":7}],"role":"assistant"}}`,
		`{"type":"message","message":{"role":"toolResult","content":"x","toolCallId":"c1","toolCallId":"c2"}}`,
		`{"type":"message","message":{"role":"assistant","content":{"k":{"type":"toolCall","id":"o1"}}}}`,
		`{"type":"message","message":{"role":"assistant","content":"plain"}}`,
		`{"type":5,"timestamp":null,"parentId":null,"version":"3","fromId":"root","targetId":["x"],"firstKeptEntryIndex":1.5e0}`,
		`{"message":[1],"type":"message"}`,
		`{"message":{"role":{"a":1},"role":"user"}}`,
		`{}`,
	}
	files, _ := filepath.Glob("testdata/*/*.jsonl")
	files = append(files, ownSampleFiles(t)...)
	files = append(files, realSamplesIfThere()...)
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(b), "\n")...)
	}
	n := 0
	for _, l := range lines {
		if json.Valid([]byte(l)) && gjson.Parse(l).IsObject() {
			checkFields(t, []byte(l))
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d lines compared", n)
	}
}

func FuzzFieldsLikeGjson(f *testing.F) {
	f.Add([]byte(`{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"a"}]}}`))
	f.Add([]byte(`{"type":"message","message":{"role":"toolResult","toolCallId":"a"}}`))
	f.Add([]byte(`{"type":"compaction","firstKeptEntryId":"x","id":"y","parentId":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if json.Valid(b) && gjson.ParseBytes(b).IsObject() {
			checkFields(t, b)
		}
	})
}
