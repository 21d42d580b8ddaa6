package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// TestAdaptTimes: a target of Unix milliseconds that orders its messages
// by time gets no time before 1970 (left unset for its writer to spell as
// the one before) and no message going back in time; a target that
// declares neither gets the times as read.
func TestAdaptTimes(t *testing.T) {
	timed := format.Caps{Own: []string{"tm"}, Roles: []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool},
		Blocks:         []session.BlockType{session.BlockText, session.BlockToolCall},
		TimesAfter1970: "after 1970", TimesForward: "forward"}
	at := func(e *session.Entry, ms int64) *session.Entry { e.Time = session.FromMillis(ms); return e }
	u, a := session.RoleUser, session.RoleAssistant
	entries := func() []*session.Entry {
		return []*session.Entry{
			at(msg("a", "", u), -5000),               // before 1970
			at(msg("b", "a", a), 2000),               //
			at(msg("c", "b", u), 1000),               // back: takes b's
			at(msg("r", "c", session.RoleTool), 500), // a result: no message of its own
			msg("d", "r", a),                         // unset: stays so
			at(msg("e", "d", u), 3000),
		}
	}
	cases := []struct {
		name string
		to   format.Caps
		want []int64 // each entry's ms (0 unset)
		lost []string
	}{
		{name: "declared", to: timed, want: []int64{0, 2000, 2000, 500, 0, 3000},
			// the session's creation and a's, and c's; one kind and
			// action, so one item, under the first reason
			lost: []string{"3 time converted: after 1970"}},
		{name: "not declared", to: linear, want: []int64{-5000, 2000, 1000, 0, 3000}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := session.Meta{ID: "s", Created: session.FromMillis(-1), Source: session.Source{Origin: "src"}}
			lost := &loss.Counter{}
			r, err := Adapt(&session.SliceReader{S: &session.Session{Meta: m, Entries: entries()}}, nil, c.to, "x", lost)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			if err := session.Each(r, func(e *session.Entry) error {
				ms := e.Time.UnixMilli()
				if e.Time.IsZero() {
					ms = 0
				}
				got = append(got, ms)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("times (-want +got):\n%s", d)
			}
			var items []string
			for _, it := range lost.Items() {
				if it.Kind == loss.Time {
					items = append(items, fmtItem(it))
				}
			}
			if d := cmp.Diff(c.lost, items); d != "" {
				t.Errorf("loss (-want +got):\n%s", d)
			}
			if c.to.TimesAfter1970 != "" && !r.Meta().Created.IsZero() {
				t.Errorf("created before 1970 kept: %v", r.Meta().Created)
			}
		})
	}
}
