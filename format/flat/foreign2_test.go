package flat

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

func TestStopReasonMapping(t *testing.T) {
	call := []session.Block{{Type: session.BlockToolCall, ToolCallID: "c"}}
	cases := []struct {
		in      string
		content []session.Block
		errMsg  string
		want    string
		lossy   bool
	}{
		{"stop", nil, "", "stop", false},
		{"aborted", nil, "", "aborted", false},
		{"toolUse", nil, "", "tool_use", false},
		{"tool_calls", nil, "", "tool_use", false},
		{"end_turn", nil, "", "stop", false},
		{"max_tokens", nil, "", "length", false},
		{"", call, "", "tool_use", false},
		{"", nil, "boom", "error", false},
		{"", nil, "", "stop", false},
		{"content_filter", nil, "", "stop", true},
	}
	for _, c := range cases {
		// written as convert writes it: adapted for flat, then flat's writer
		lost := &loss.Counter{}
		m := &session.Message{Role: session.RoleAssistant, StopReason: c.in, Content: c.content, Error: c.errMsg}
		in := &session.Session{Meta: session.Meta{Cwd: "/w", Created: tm("2026-02-09T10:15:26Z"), Source: session.Source{Origin: "goat"}},
			Entries: []*session.Entry{{Kind: session.KindMessage, ID: "e1", Message: m}}}
		var out bytes.Buffer
		if err := convert.WriteTo(New(), &out, &session.SliceReader{S: in}, format.WriteOptions{}, lost); err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(out.String(), `"stop_reason":"`+c.want+`"`)
		lossy := false
		for _, it := range lost.Items() {
			lossy = lossy || it.Kind == loss.StopReason
		}
		if !got || lossy != c.lossy {
			t.Errorf("%q: want %q (lossy %v), got %s (loss %v)", c.in, c.want, c.lossy, out.Bytes(), lost.Items())
		}
	}
}

// A goat-like child session: no id of its own in the model, a parent link
// with a path (written as the branch line), a sub-agent entry (dropped).
func TestWriteForeignParentAndIDs(t *testing.T) {
	user := &session.Message{Role: session.RoleUser, Content: []session.Block{text("hi")}}
	mk := func(parent *session.Parent) *session.Session {
		return &session.Session{
			Meta: session.Meta{Cwd: "/w", Created: tm("2026-02-09T10:15:26.123456789-08:00"), Parent: parent, Source: session.Source{Origin: "goat"},
				Checkpoints: []session.Checkpoint{{ID: "session-end"}}},
			Entries: []*session.Entry{
				{Kind: session.KindMessage, ID: "9b3c1a2e-0000-4000-8000-000000000001", Message: user},
				{Kind: session.KindMessage, ID: "9b3c1a2e-0000-4000-8000-000000000002", ParentID: "9b3c1a2e-0000-4000-8000-000000000001",
					Sidechain: "agent-1", Message: user},
			},
		}
	}
	lost := &loss.Counter{}
	var out bytes.Buffer
	p := &session.Parent{Path: "/s/parent.jsonl", EntryID: "aaaaaaa1", Summary: "why"}
	if err := convert.WriteTo(New(), &out, &session.SliceReader{S: mk(p)}, format.WriteOptions{}, lost); err != nil {
		t.Fatal(err)
	}
	l := lines(out.Bytes())
	if len(l) != 3 {
		t.Fatalf("want header, branch, one message; got:\n%s", out.Bytes())
	}
	if !strings.HasPrefix(l[0], `{"type":"session","id":"`) || !strings.Contains(l[0], `"version":1,"timestamp":"2026-02-09T18:15:26Z","cwd":"/w"}`) {
		t.Errorf("header: %s", l[0])
	}
	if !strings.Contains(l[1], `"timestamp":"2026-02-09T18:15:26Z","parent_session_path":"/s/parent.jsonl","fork_entry_id":"aaaaaaa1","branch_summary":"why"}`) {
		t.Errorf("branch: %s", l[1])
	}
	var kinds []string
	for _, it := range lost.Items() {
		kinds = append(kinds, string(it.Kind))
	}
	if got := strings.Join(kinds, ","); got != "checkpoint,sidechain-entry" {
		t.Errorf("losses: %s", got)
	}
	rep := &report.Report{}
	if err := New().ValidateReader("out.jsonl", bytes.NewReader(out.Bytes()), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	fs := rep.Findings()
	if rep.Errors() != 0 || len(fs) != 1 || fs[0].Rule != "parent-unavailable" {
		t.Errorf("want only the parent-unavailable warning, got %v", fs)
	}

	// A parent known only by session id cannot become a branch line.
	lost = &loss.Counter{}
	out.Reset()
	if err := convert.WriteTo(New(), &out, &session.SliceReader{S: mk(&session.Parent{SessionID: "p"})}, format.WriteOptions{}, lost); err != nil {
		t.Fatal(err)
	}
	if n := len(lines(out.Bytes())); n != 2 || !strings.Contains(lost.Items()[1].String(), "parent-link dropped") {
		t.Errorf("%d lines, losses %v", n, lost.Items())
	}
}

// A session read from flat passes through the adaptation untouched, so an
// entry of another layout appended to it, or a flat entry without its
// payload, has not been made fit for flat: the writer refuses it with an
// error naming the entry, rather than write it by rules that no longer
// apply or leave it out.
func TestWriteNativeRefusesForeignEntry(t *testing.T) {
	for _, c := range []struct {
		name  string
		entry *session.Entry
		want  string
	}{
		{"another layout's message", &session.Entry{Kind: session.KindMessage, ID: "6b158526", ParentID: "0bce3d6c", Time: tm("2026-11-21T05:00:00Z"),
			Source:  session.Source{Origin: "tree"},
			Message: &session.Message{Role: session.RoleUser, Content: []session.Block{text("more")}}},
			`entry "6b158526": an entry of another layout in a session read from flat`},
		{"another layout's label", &session.Entry{Kind: session.KindLabel, ID: "lab1", Label: &session.Label{TargetID: "0bce3d6c"}},
			`entry "lab1": an entry of another layout`},
		{"a flat entry without its message", &session.Entry{Kind: session.KindMessage, ID: "aa11bb22", Source: session.Source{Origin: Name}},
			`entry "aa11bb22": a flat message entry without its payload`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := New().OpenReader("in", bytes.NewReader(readFile(t, samples+"/20261121-042425-a1bea1d6.jsonl")))
			if err != nil {
				t.Fatal(err)
			}
			s, err := session.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			s.Entries = append(s.Entries, c.entry)
			var out bytes.Buffer
			err = convert.WriteTo(New(), &out, &session.SliceReader{S: s}, format.WriteOptions{}, &loss.Counter{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got error %v, want one saying %q", err, c.want)
			}
		})
	}
}
