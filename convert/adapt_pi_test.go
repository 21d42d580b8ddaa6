package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// adaptItems adapts the session of origin "src" with entries for to, and
// returns what it gives and the losses counted.
func adaptItems(t *testing.T, to format.Caps, m session.Meta, entries []*session.Entry) ([]*session.Entry, []string) {
	t.Helper()
	if m.Origin == "" {
		m.Origin = "src"
	}
	lost := &loss.Counter{}
	r, err := Adapt(&session.SliceReader{S: &session.Session{Meta: m, Entries: entries}}, nil, to, "x", lost)
	if err != nil {
		t.Fatal(err)
	}
	got, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var items []string
	for _, it := range lost.Items() {
		items = append(items, fmtItem(it))
	}
	return got.Entries, items
}

// TestFirstKeptNamed: where a compaction must name its first kept entry,
// one naming none after an entry is counted moved (its writer names the
// entry before it); one that names it, one that starts the session, one of
// the target's own, and every one where the rule is not declared, are not.
func TestFirstKeptNamed(t *testing.T) {
	named := format.Caps{Own: []string{"own"}, Kinds: []session.Kind{session.KindCompaction}, Blocks: []session.BlockType{session.BlockText}, FirstKeptNamed: "must name one"}
	comp := func(id, parent, kept string) *session.Entry {
		e := kind(id, parent, session.KindCompaction)
		e.Compaction = &session.Compaction{Summary: "s", FirstKeptID: kept}
		return e
	}
	mine := comp("c", "a", "")
	mine.Origin = "own"
	for _, tc := range []struct {
		name  string
		to    format.Caps
		links bool // the source links messages only
		in    []*session.Entry
		want  []string
	}{
		{"names none", named, false, []*session.Entry{msg("a", "", session.RoleUser), comp("c", "a", "")}, []string{"1 compaction-first-kept moved: must name one"}},
		{"names one", named, false, []*session.Entry{msg("a", "", session.RoleUser), comp("c", "a", "a")}, nil},
		{"starts the session", named, false, []*session.Entry{comp("c", "", "")}, nil},
		{"after an entry, linked by messages", named, true, []*session.Entry{msg("a", "", session.RoleUser), comp("c", "", "")}, []string{"1 compaction-first-kept moved: must name one"}},
		{"of the target's own", named, false, []*session.Entry{msg("a", "", session.RoleUser), mine}, nil},
		{"not declared", format.Caps{Kinds: named.Kinds, Blocks: named.Blocks}, false, []*session.Entry{msg("a", "", session.RoleUser), comp("c", "a", "")}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, items := adaptItems(t, tc.to, session.Meta{ID: "s", MessageLinks: tc.links}, tc.in)
			if len(got) != len(tc.in) || got[len(got)-1].Compaction.FirstKeptID != tc.in[len(tc.in)-1].Compaction.FirstKeptID {
				t.Errorf("entries %v: the compaction was changed or dropped", got)
			}
			if d := cmp.Diff(tc.want, items); d != "" {
				t.Errorf("losses (-want +got):\n%s", d)
			}
		})
	}
}

// TestMessageTimeAfter1970: where a message's own time is kept only after
// 1970, an earlier one takes its entry's time (converted), or, when the
// entry's is earlier too, is left out, the entry keeping the time it took
// from the message (dropped); a message whose entry's time is before 1970
// and that has none is counted dropped; a target that does not declare it
// gets the times as read.
func TestMessageTimeAfter1970(t *testing.T) {
	pi := format.Caps{Roles: []session.Role{session.RoleUser}, Blocks: []session.BlockType{session.BlockText},
		MessageTimeAsEntry: "as entry", MessageTimeLeftOut: "left out"}
	at := func(id string, entry, message int64) *session.Entry {
		e := msg(id, "", session.RoleUser)
		if entry != 0 {
			e.Time = session.FromMillis(entry)
		}
		if message != 0 {
			e.Message.Time = session.FromMillis(message)
		}
		return e
	}
	in := func() []*session.Entry {
		return []*session.Entry{
			at("a", 2000, -5),   // takes its entry's time
			at("b", -3000, -5),  // left out
			at("c", 0, -7),      // left out, the entry keeping -7
			at("d", 4000, 3000), // kept
			at("e", -1000, 0),   // none of its own, the entry's cannot be
			at("f", 5000, 0),    // none of its own: its writer gives it 5000
		}
	}
	type times struct{ Entry, Message int64 }
	ms := func(t session.Time) int64 {
		if t.IsZero() {
			return 0
		}
		return t.UnixMilli()
	}
	for _, tc := range []struct {
		name string
		to   format.Caps
		want []times
		lost []string
	}{
		{"declared", pi, []times{{2000, 2000}, {-3000, 0}, {-7, 0}, {4000, 3000}, {-1000, 0}, {5000, 0}},
			[]string{"1 time converted: as entry", "3 time dropped: left out"}},
		{"not declared", format.Caps{Roles: pi.Roles, Blocks: pi.Blocks}, []times{{2000, -5}, {-3000, -5}, {0, -7}, {4000, 3000}, {-1000, 0}, {5000, 0}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, items := adaptItems(t, tc.to, session.Meta{ID: "s"}, in())
			var ts []times
			for _, e := range got {
				ts = append(ts, times{ms(e.Time), ms(e.Message.Time)})
			}
			if d := cmp.Diff(tc.want, ts); d != "" {
				t.Errorf("times (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.lost, items); d != "" {
				t.Errorf("losses (-want +got):\n%s", d)
			}
		})
	}
}
