package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// TestAgain reads an adapted session a second time: the same entries as
// the first reading, with nothing counted twice; a session of the target's
// own is reopened as it was read; a tree target's adaptation cannot be read
// again.
func TestAgain(t *testing.T) {
	entries := func() []*session.Entry {
		return []*session.Entry{
			msg("a", "", session.RoleUser),
			msg("b", "a", session.RoleAssistant),
			msg("off", "a", session.RoleAssistant), // a branch: flattened away
			msg("c", "b", session.RoleTool),        // a role the target drops
			msg("d", "c", session.RoleUser),
		}
	}
	for _, c := range []struct {
		name, origin string
		tree, err    bool
		want         []string
	}{
		{name: "linear", origin: "src", want: []string{"a", "b", "d"}},
		{name: "own", origin: "lin", want: []string{"a", "b", "off", "c", "d"}},
		{name: "tree", origin: "src", tree: true, err: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			open := func() (session.Reader, error) {
				return &session.SliceReader{S: &session.Session{Meta: session.Meta{ID: "s", Source: session.Source{Origin: c.origin}}, Entries: entries()}}, nil
			}
			to := linear
			if c.tree {
				to = tree
			}
			lost := &loss.Counter{}
			r, _ := open()
			a, err := Adapt(r, open, to, "lin", lost)
			if err != nil {
				t.Fatal(err)
			}
			ids := func(r session.Reader) []string {
				var got []string
				if err := session.Each(r, func(e *session.Entry) error { got = append(got, e.ID); return nil }); err != nil {
					t.Fatal(err)
				}
				return got
			}
			if c.err {
				ids(a)
			} else if d := cmp.Diff(c.want, ids(a)); d != "" {
				t.Errorf("read first (-want +got):\n%s", d)
			}
			first := lost.Items()
			again, err := format.ReadAgain(a, open)
			if c.err {
				if err == nil {
					t.Fatal("a tree target's adaptation was read again")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.want, ids(again)); d != "" {
				t.Errorf("read again (-want +got):\n%s", d)
			}
			if d := cmp.Diff(first, lost.Items()); d != "" {
				t.Errorf("the second reading counted losses (-before +after):\n%s", d)
			}
		})
	}
}
