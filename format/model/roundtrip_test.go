package model

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// notDumped are the model's fields the dump leaves out on purpose: source
// bytes, and Source (its Origin and Line are dumped as "source" but read
// back as the dump's own; its Raw and Private never are). MessageLinks goes
// with Source: it says how the reading layout spelled its parent ids, and a
// dump is read back as the model layout's, whose parent ids are read as
// they are.
var notDumped = map[string]bool{"Raw": true, "Source": true, "MessageLinks": true}

func ptr[T any](v T) *T { return &v }

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func at(s string) session.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return session.Time{T: t, Raw: s}
}

// full is a session with every slot of the model set to something other
// than its zero value, so a slot the dump forgets fails the round trip.
func full() *session.Session {
	x := session.Extras{{Key: "z", Value: raw(`{"a":[1,2.50,"<&>"]}`)}, {Key: "z", Value: raw(`null`)}}
	msg := &session.Message{
		Role: session.RoleAssistant, SourceRole: "bot",
		Content: []session.Block{{
			Type: session.BlockToolCall, Text: "t", Signature: "sig", Redacted: true,
			MimeType: "image/png", Data: "AAAA", URL: "https://example.com/a.png", Filename: "a.png",
			ToolCallID: "call1", ToolName: "bash", Arguments: raw(`{"command":"ls"}`), IsError: true, Extra: x,
		}},
		ContentIsString: true, ContentIsNull: true, Time: session.FromMillis(1700000000123),
		API: "messages", Provider: "anthropic", Model: "claude",
		Usage: &session.Usage{
			Input: 1, Output: 2, CacheRead: 3, CacheWrite: 4, Reasoning: 5, Total: ptr(int64(15)),
			Cost: &session.Cost{Input: 0.1, Output: 0.2, CacheRead: 0.3, CacheWrite: 0.4, Total: 1e-7, Extra: x}, Extra: x,
		},
		StopReason: "toolUse", Error: "overloaded", ToolCallID: "call0", ToolName: "read", IsError: true,
		Exec:       &session.Exec{Command: "ls", Output: "a\n", ExitCode: ptr(int64(2)), Cancelled: true, Truncated: true, FullOutputPath: "/tmp/o"},
		CustomType: "note", Display: ptr(false), Details: raw(`{"k":"v"}`),
		AuthorID: "u1", AuthorName: "Ann", TokenCount: ptr(int64(42)), Extra: x,
	}
	return &session.Session{
		Meta: session.Meta{
			ID: "s1", Title: "A title", Cwd: "/w", Created: at("2026-01-02T03:04:05.123456+01:00"), Updated: at("2026-01-02T04:00:00Z"),
			Version: "3",
			Parent: &session.Parent{SessionID: "s0", Path: "/p.jsonl", EntryID: "e0", Summary: "fork", Run: true, ID: "b1",
				Time: at("2026-01-01T00:00:00Z"), Extra: x, Raw: []byte(`{}`)},
			Provider: "openai", Model: "gpt", ThinkingLevel: "high",
			Checkpoints: []session.Checkpoint{{ID: "c1", MessageID: "m1", Created: at("2026-01-02T03:04:05Z"),
				Files: []session.FileState{{Path: "a.go", Exists: true, Hash: "ab", Size: 3, Blob: "files/ab"}}, Raw: []byte(`{}`)}},
			Children: []string{"s2"}, Extra: x, Source: session.Source{Origin: "tree", Raw: []byte(`{}`)},
		},
		Entries: []*session.Entry{{
			Kind: session.KindMessage, Type: "message", ID: "e1", ParentID: "e0", Time: at("2026-01-02T03:04:05.000000001-07:00"),
			Sidechain: "agent1", Message: msg,
			Compaction:    &session.Compaction{Summary: "s", FirstKeptID: "e0", TokensBefore: ptr(int64(9)), TokensAfter: ptr(int64(3)), Details: raw(`[1]`), FromHook: ptr(true), BranchID: "b"},
			BranchSummary: &session.BranchSummary{FromID: "root", Summary: "bs", Details: raw(`null`), FromHook: ptr(false)},
			Label:         &session.Label{TargetID: "e0", Label: "here"},
			ModelChange:   &session.ModelChange{Provider: "p", ModelID: "m", Role: "smol", Combined: true},
			ThinkingLevel: ptr("low"), Title: "T",
			Custom:   &session.Custom{CustomType: "ext", Data: raw(`{"n":1}`)},
			Subagent: &session.Subagent{ID: "a1", ParentToolCallID: "call1", AgentType: "general", AgentName: "helper", Result: "done", IsError: true},
			Extra:    x, Source: session.Source{Origin: "tree", Raw: []byte(`{}`), Line: 2},
		}, {
			// A time the source spelled but no reader could parse, a message
			// with no content, an entry from another layout than the session.
			Kind: session.KindOther, Time: session.Time{Raw: "yesterday"},
			Message: &session.Message{Role: session.RoleUser}, Source: session.Source{Origin: "flat", Line: 3},
		}},
	}
}

// TestFullHasEverySlot keeps full() honest as the model grows: a new field
// must be set there, and so be dumped, or be named in notDumped.
func TestFullHasEverySlot(t *testing.T) {
	s := full()
	checkSet(t, "Meta", reflect.ValueOf(s.Meta))
	checkSet(t, "Entry", reflect.ValueOf(*s.Entries[0]))
}

func checkSet(t *testing.T, path string, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			t.Errorf("%s is nil in full()", path)
			return
		}
		if v.Elem().Kind() == reflect.Struct {
			checkSet(t, path, v.Elem())
		} // a pointer to a scalar is set when it is not nil: *false is a value
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			if v.Interface().(time.Time).IsZero() {
				t.Errorf("%s is zero in full()", path)
			}
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !notDumped[f.Name] {
				checkSet(t, path+"."+f.Name, v.Field(i))
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			t.Errorf("%s is empty in full()", path)
			return
		}
		if v.Type().Elem().Kind() != reflect.Uint8 { // raw JSON is a value, not a list
			checkSet(t, path+"[0]", v.Index(0))
		}
	default:
		if v.IsZero() {
			t.Errorf("%s is zero in full()", path)
		}
	}
}

// TestEverySlotRoundTrips dumps full(), reads the dump back and compares:
// every slot but the source's own must come back as it was.
func TestEverySlotRoundTrips(t *testing.T) {
	s := full()
	b, err := Dump(s)
	if err != nil {
		t.Fatal(err)
	}
	rep := &report.Report{}
	if err := (Format{}).ValidateReader("full", bytes.NewReader(b), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings() {
		if f.Severity == report.Error { // full() has dangling parents on purpose: warnings
			t.Errorf("the schema refuses what the writer wrote: %s", f.Text()) // every member the writer knows must be in schema/model/v1
		}
	}
	back, err := read(b)
	if err != nil {
		t.Fatalf("read the dump back: %v\n%s", err, b)
	}
	opts := cmp.Options{
		cmpopts.IgnoreFields(session.Entry{}, "Source"),
		cmpopts.IgnoreFields(session.Meta{}, "Source"),
		cmpopts.IgnoreFields(session.Parent{}, "Raw"),
		cmpopts.IgnoreFields(session.Checkpoint{}, "Raw"),
		cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) }),
		cmp.Comparer(func(a, b json.RawMessage) bool { return compact(a) == compact(b) }),
	}
	if diff := cmp.Diff(s, back, opts); diff != "" {
		t.Errorf("the dump does not round-trip (-want +got):\n%s\n%s", diff, b)
	}
	if back.Meta.Origin != Name || back.Entries[0].Origin != Name || back.Entries[0].Line != 2 || back.Meta.Raw != nil {
		t.Errorf("read back: origin %q/%q, line %d, raw %q; want a session of origin %q from line 2 without source bytes",
			back.Meta.Origin, back.Entries[0].Origin, back.Entries[0].Line, back.Meta.Raw, Name)
	}
	if strings.Contains(string(b), "Raw") || bytes.Contains(b, []byte(`{}`)) {
		t.Errorf("the dump holds source bytes:\n%s", b)
	}
	again, err := Dump(back)
	if err != nil {
		t.Fatal(err)
	}
	if twice, _ := Dump(s); !bytes.Equal(b, twice) {
		t.Errorf("two dumps of one session differ:\n%s\n%s", b, twice)
	}
	// Read back, the session's layout is the dump: "source" says so, and
	// nothing else changes.
	want := strings.NewReplacer(`"source":{"layout":"tree"}`, `"source":{"layout":"model"}`,
		`"source":{"layout":"flat","line":3}`, `"source":{"line":3}`).Replace(string(b))
	if string(again) != want {
		t.Errorf("dump of the dump:\n%s\nwant\n%s", again, want)
	}
}

func compact(b []byte) string {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return "invalid:" + string(b)
	}
	return out.String()
}

func read(b []byte) (*session.Session, error) {
	r, err := Format{}.OpenReader("dump", bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return session.ReadAll(r)
}

// note is a layout's Private value that keeps n parts of the source the
// model has no slot for.
type note struct{ n int }

func (p note) Unmodelled() int { return p.n }

// TestUnmodelledCounted: what a layout keeps privately is never dumped, but
// how many parts of it the model has no slot for is, so the dump accounts
// for every unknown part of the source as the loss report does.
func TestUnmodelledCounted(t *testing.T) {
	s := &session.Session{
		Meta: session.Meta{ID: "s", Source: session.Source{Origin: "ash", Private: note{3}}},
		Entries: []*session.Entry{{
			Kind: session.KindMessage, ID: "a",
			Message: &session.Message{Role: session.RoleAssistant, Content: []session.Block{
				{Type: session.BlockToolCall, ToolCallID: "c", Source: session.Source{Origin: "ash", Private: note{1}}},
				{Type: session.BlockText, Text: "kept", Source: session.Source{Origin: "ash", Private: "a note without parts"}},
			}},
			Source: session.Source{Origin: "ash", Line: 4, Private: note{2}},
		}},
	}
	b, err := Dump(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":1,"meta":{"id":"s","source":{"layout":"ash","unmodelled":3}}}
{"kind":"message","id":"a","message":{"role":"assistant","content":[{"type":"tool_call","tool_call_id":"c","source":{"unmodelled":1}},{"type":"text","text":"kept"}]},"source":{"line":4,"unmodelled":2}}
`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
	rep := &report.Report{}
	if err := (Format{}).ValidateReader("unmodelled", bytes.NewReader(b), rep, format.ValidateOptions{}); err != nil || rep.Errors() > 0 {
		t.Errorf("the dump does not validate: %v %v", err, rep.Findings())
	}
}
