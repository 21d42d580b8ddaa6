package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// TestKindsDropped: compactions a target declares dropped (and neither
// holds nor converts) are dropped by the adaptation and counted, in the
// layout's words when it declares them, and what hung from them hangs from
// their parent; undeclared, they reach the writer. Extension messages are
// not this rule's (CustomMessages), even listed.
func TestKindsDropped(t *testing.T) {
	base := format.Caps{Linear: true, Roles: []session.Role{session.RoleUser}, Blocks: []session.BlockType{session.BlockText}}
	drops := base
	drops.KindsDropped = []session.Kind{session.KindCompaction, session.KindCustomMessage}
	worded := drops
	worded.LossReasons = map[loss.Kind]string{loss.CompactionEntry: "no summary to resume from"}
	held := drops
	held.Kinds = []session.Kind{session.KindCompaction}
	entries := func() []*session.Entry {
		return []*session.Entry{msg("a", "", session.RoleUser), kind("b", "a", session.KindCompaction), kind("c", "b", session.KindCustomMessage), msg("d", "c", session.RoleUser)}
	}
	for _, tc := range []struct {
		name string
		to   format.Caps
		want []string
		lost []string
	}{
		{"dropped", drops, []string{"a< user", "c<a custom_message", "d<c user"}, []string{
			"1 compaction-entry dropped: x has message entries only",
		}},
		{"the layout's words", worded, []string{"a< user", "c<a custom_message", "d<c user"}, []string{
			"1 compaction-entry dropped: no summary to resume from",
		}},
		{"held", held, []string{"a< user", "b<a compaction", "c<b custom_message", "d<c user"}, nil},
		{"not declared", base, []string{"a< user", "b<a compaction", "c<b custom_message", "d<c user"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{Source: session.Source{Origin: "src"}}, Entries: entries()}
			lost := &loss.Counter{}
			r, err := Adapt(&session.SliceReader{S: s}, nil, tc.to, "x", lost)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, describe(t, r)); d != "" {
				t.Errorf("entries (-want +got):\n%s", d)
			}
			var items []string
			for _, it := range lost.Items() {
				items = append(items, fmtItem(it))
			}
			if d := cmp.Diff(tc.lost, items); d != "" {
				t.Errorf("losses (-want +got):\n%s", d)
			}
		})
	}
}
