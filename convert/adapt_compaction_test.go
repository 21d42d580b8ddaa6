package convert

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// TestCompactionLacks: a target lacking some of a compaction's fields is
// given it without them, each one present counted (in the layout's words
// when it declares them); another target keeps them.
func TestCompactionLacks(t *testing.T) {
	only := format.Caps{Linear: true, Kinds: []session.Kind{session.KindCompaction},
		CompactionLacks: []loss.Kind{loss.FirstKept, loss.CompactionTokensAfter, loss.CompactionDetails, loss.CompactionBranch}}
	worded := only
	worded.LossReasons = map[loss.Kind]string{loss.FirstKept: "the line has no slot"}
	some := only
	some.CompactionLacks = []loss.Kind{loss.CompactionTokensAfter, loss.CompactionBranch}
	whole := only
	whole.CompactionLacks = nil
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
			"1 compaction-branch dropped: x's compaction entry has no such field",
			"1 compaction-details dropped: x's compaction entry has no such field",
			"1 compaction-first-kept dropped: x's compaction entry has no such field",
			"1 compaction-tokens-after dropped: x's compaction entry has no such field",
		}},
		{"null details", only, session.Compaction{Summary: "s", Details: json.RawMessage("null")}, session.Compaction{Summary: "s", Details: json.RawMessage("null")}, nil},
		{"the layout's words", worded, session.Compaction{Summary: "s", FirstKeptID: "a"}, session.Compaction{Summary: "s"}, []string{"1 compaction-first-kept dropped: the line has no slot"}},
		{"some fields", some, full, session.Compaction{Summary: "s", FirstKeptID: "a", Details: json.RawMessage(`{"x":1}`)}, []string{
			"1 compaction-branch dropped: x's compaction entry has no such field",
			"1 compaction-tokens-after dropped: x's compaction entry has no such field",
		}},
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

// TestFirstKeptEarlier: where a compaction must name an entry written
// before it, one naming such an entry is kept as it is; one naming any
// other (or none) names none, which the writer spells as the entry before
// it, counted moved; one with nothing before it is dropped, counted, and
// what hung from it hangs from its parent. Undeclared, every compaction
// passes as it is.
func TestFirstKeptEarlier(t *testing.T) {
	to := format.Caps{Linear: true, Roles: []session.Role{session.RoleUser}, Blocks: []session.BlockType{session.BlockText},
		Kinds: []session.Kind{session.KindCompaction}, FirstKeptEarlier: true}
	undeclared := to
	undeclared.FirstKeptEarlier = false
	for _, tc := range []struct {
		name    string
		to      format.Caps
		entries []*session.Entry
		want    []string // "id<parent first-kept" of each compaction given, "id<parent" of each message
		lost    []string
	}{
		{"an earlier entry", to, []*session.Entry{msg("a", "", session.RoleUser), msg("b", "a", session.RoleUser), compaction("c", "b", "a")},
			[]string{"a<", "b<a", "c<b a"}, nil},
		{"a later entry", to, []*session.Entry{msg("a", "", session.RoleUser), compaction("c", "a", "d"), msg("d", "c", session.RoleUser)},
			[]string{"a<", "c<a ", "d<c"}, []string{"1 compaction-first-kept moved: x's compaction must name an earlier kept entry; the entry before the summary is kept (a tool result with its call)"}},
		{"none named", to, []*session.Entry{msg("a", "", session.RoleUser), compaction("c", "a", "")},
			[]string{"a<", "c<a "}, []string{"1 compaction-first-kept moved: x's compaction must name an earlier kept entry; the entry before the summary is kept (a tool result with its call)"}},
		{"nothing before it", to, []*session.Entry{compaction("c", "", "d"), msg("d", "c", session.RoleUser)},
			[]string{"d<"}, []string{"1 compaction-entry dropped: x's compaction must name an earlier kept entry, and none was written before this one"}},
		{"undeclared", undeclared, []*session.Entry{compaction("c", "", "d"), msg("d", "c", session.RoleUser)},
			[]string{"c< d", "d<c"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{Source: session.Source{Origin: "src"}}, Entries: tc.entries}
			lost := &loss.Counter{}
			r, err := Adapt(&session.SliceReader{S: s}, nil, tc.to, "x", lost)
			if err != nil {
				t.Fatal(err)
			}
			out, err := session.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range out.Entries {
				d := e.ID + "<" + e.ParentID
				if e.Compaction != nil {
					d += " " + e.Compaction.FirstKeptID
				}
				got = append(got, d)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
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
