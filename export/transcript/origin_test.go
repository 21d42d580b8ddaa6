package transcript

import (
	"testing"

	"github.com/sesstool/sesstool/session"
)

func TestOrigin(t *testing.T) {
	for _, tc := range []struct {
		p    *session.Parent
		ok   bool
		line string
	}{
		{nil, false, ""},
		{&session.Parent{}, false, ""},
		{&session.Parent{Path: "/s/a.jsonl"}, true, "forked from session /s/a.jsonl"},
		{&session.Parent{SessionID: "ses_1"}, true, "forked from session ses_1"},
		{&session.Parent{SessionID: "f1", Path: "/s/f1.jsonl", EntryID: "e9", Summary: " tried X "}, true, "forked from session f1 (/s/f1.jsonl) at entry e9"},
	} {
		tr, err := New(&session.Session{Meta: session.Meta{ID: "x", Parent: tc.p}}, "")
		if err != nil {
			t.Fatal(err)
		}
		o, ok := tr.Origin()
		if ok != tc.ok || (ok && o.Line() != tc.line) {
			t.Errorf("%+v: ok %v line %q, want %v %q", tc.p, ok, o.Line(), tc.ok, tc.line)
		}
		if tc.p != nil && tc.p.Summary != "" && o.Summary != "tried X" {
			t.Errorf("summary = %q", o.Summary)
		}
	}
}
