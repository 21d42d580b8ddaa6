package transcript

import (
	"testing"

	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/session"
)

func TestTranscript(t *testing.T) {
	s := fixture.Session()
	// a second label entry clears the first one's tag
	s.Entries = append(s.Entries, &session.Entry{Kind: session.KindLabel, ID: "l2", ParentID: "x9", Label: &session.Label{TargetID: "u1", Label: "start"}},
		&session.Entry{Kind: session.KindLabel, ID: "l3", ParentID: "l2", Label: &session.Label{TargetID: "u1"}})
	tr, err := New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Leaf.ID != "l3" || tr.Path[0].ID != "u1" {
		t.Errorf("leaf %s, path starts at %s; want l3 and u1", tr.Leaf.ID, tr.Path[0].ID)
	}
	if tr.Labels["a4"] != "fixed" || tr.Labels["u1"] != "" {
		t.Errorf("labels = %v, want a4=fixed and u1 cleared", tr.Labels)
	}
	for _, id := range []string{"r1", "r2", "r3"} {
		if tr.Visible(s.Entries[tr.Conv.Index(id)]) {
			t.Errorf("result %s is shown on its own, want it inside its call", id)
		}
	}
	st := tr.Stats()
	if st.ToolCalls != 3 || st.Roles["user"] != 3 || st.Branches != 2 || len(st.Turns) != 5 {
		t.Errorf("stats = %+v", st)
	}
	if last := st.Turns[len(st.Turns)-1]; last.Cost < 0.114 || last.Cost > 0.116 || last.Context != 4200 {
		t.Errorf("last turn = %+v, want cumulative cost 0.115 and context 4200", last)
	}
	if _, err := New(s, "missing"); err == nil {
		t.Error("unknown leaf accepted")
	}
}

func TestTitle(t *testing.T) {
	s := fixture.Session()
	tr, _ := New(s, "")
	if got := tr.Title(); got != "Fix the parser" {
		t.Errorf("meta title: %q", got)
	}
	s.Meta.Title = ""
	if got := tr.Title(); got != "Parser fix" {
		t.Errorf("title change: %q", got)
	}
	s.Entries[18].Title = ""
	if got := tr.Title(); got != "Please fix the **parser** in `main.go`. <script>window.__pwned = 1</script> Than…" {
		t.Errorf("first user message: %q", got)
	}
	s.Entries = nil
	if got := tr.Title(); got != "Session sess-1" {
		t.Errorf("no messages: %q", got)
	}
}
