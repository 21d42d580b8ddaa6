package convert

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// TestCompactionSummaryOnly: a target keeping a compaction's summary only
// is given the summary without the other fields, each one present counted
// (in the layout's words when it declares them); another target keeps them.
func TestCompactionSummaryOnly(t *testing.T) {
	only := format.Caps{Linear: true, Kinds: []session.Kind{session.KindCompaction}, CompactionSummaryOnly: true}
	worded := only
	worded.LossReasons = map[loss.Kind]string{loss.FirstKept: "the line has no slot"}
	whole := only
	whole.CompactionSummaryOnly = false
	n := int64(5)
	full := session.Compaction{Summary: "s", FirstKeptID: "a", TokensAfter: &n, Details: json.RawMessage(`{"x":1}`), BranchID: "b"}
	for _, tc := range []struct {
		name string
		to   format.Caps
		in   session.Compaction
		out  session.Compaction
		want []string
	}{
		{"every field", only, full, session.Compaction{Summary: "s"}, []string{
			"1 compaction-branch dropped: x keeps a compaction's summary only",
			"1 compaction-details dropped: x keeps a compaction's summary only",
			"1 compaction-first-kept dropped: x keeps a compaction's summary only",
			"1 compaction-tokens-after dropped: x keeps a compaction's summary only",
		}},
		{"null details", only, session.Compaction{Summary: "s", Details: json.RawMessage("null")}, session.Compaction{Summary: "s", Details: json.RawMessage("null")}, nil},
		{"the layout's words", worded, session.Compaction{Summary: "s", FirstKeptID: "a"}, session.Compaction{Summary: "s"}, []string{"1 compaction-first-kept dropped: the line has no slot"}},
		{"kept whole", whole, full, full, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.in
			e := kind("c", "", session.KindCompaction)
			e.Compaction = &c
			s := &session.Session{Meta: session.Meta{Source: session.Source{Origin: "src"}}, Entries: []*session.Entry{e}}
			lost := &loss.Counter{}
			r, err := Adapt(&session.SliceReader{S: s}, nil, tc.to, "x", lost)
			if err != nil {
				t.Fatal(err)
			}
			got, err := session.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Entries) != 1 || got.Entries[0].Compaction == nil {
				t.Fatalf("entries %v, want the compaction", got.Entries)
			}
			if d := cmp.Diff(tc.out, *got.Entries[0].Compaction); d != "" {
				t.Errorf("compaction (-want +got):\n%s", d)
			}
			if tc.in.FirstKeptID != c.FirstKeptID || tc.in.BranchID != c.BranchID {
				t.Errorf("the source's compaction was changed: %+v", c)
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
