package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// TestParentInBatch: where a target keeps a link to a parent session only
// when the parent is converted in the same run, a link to one left behind
// is dropped and counted, of the target's own sessions too; a parent in the
// run, an unknown run, and a target that does not declare it keep the link.
func TestParentInBatch(t *testing.T) {
	inBatch := format.Caps{Own: []string{"own"}, Roles: []session.Role{session.RoleUser},
		ParentInBatch: &format.Rule{Action: loss.Dropped, Why: "hidden without its parent"}}
	for _, tc := range []struct {
		name   string
		to     format.Caps
		origin string
		batch  map[string]bool
		keeps  bool
		want   []string
	}{
		{"parent left behind", inBatch, "src", map[string]bool{"child": true}, false, []string{"1 parent-link dropped: hidden without its parent"}},
		{"own session, parent left behind", inBatch, "own", map[string]bool{"child": true}, false, []string{"1 parent-link dropped: hidden without its parent"}},
		{"parent in the run", inBatch, "src", map[string]bool{"child": true, "p": true}, true, nil},
		{"run unknown", inBatch, "src", nil, true, nil},
		{"not declared", format.Caps{Roles: inBatch.Roles}, "src", map[string]bool{"child": true}, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{ID: "child", Parent: &session.Parent{SessionID: "p"}, Source: session.Source{Origin: tc.origin}},
				Entries: []*session.Entry{msg("a", "", session.RoleUser)}}
			lost := &loss.Counter{}
			r, err := Adapt(parentInBatch(&session.SliceReader{S: s}, tc.to, tc.batch, lost), nil, tc.to, "x", lost)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Meta().Parent != nil; got != tc.keeps {
				t.Errorf("parent link kept %v, want %v", got, tc.keeps)
			}
			if s.Meta.Parent == nil {
				t.Error("the source's meta was changed")
			}
			var items []string
			for _, it := range lost.Items() {
				items = append(items, fmtItem(it))
			}
			if d := cmp.Diff(tc.want, items); d != "" {
				t.Errorf("losses (-want +got):\n%s", d)
			}
		})
	}
}
