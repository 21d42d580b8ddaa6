package convo

import "testing"

func TestMissing(t *testing.T) {
	want := []Item{{User, "hello  world"}, {Call, "Bash"}, {Result, "out"}, {Assistant, "done"}}
	cases := []struct {
		name string
		got  []Item
		miss int
	}{
		{"all in order, re-wrapped", []Item{{User, "<ctx/> hello\nworld"}, {Call, "bash"}, {Result, "out\n"}, {Assistant, "done."}}, 0},
		{"a result missing", []Item{{User, "hello world"}, {Call, "Bash"}, {Assistant, "done"}}, 1},
		{"out of order", []Item{{Assistant, "done"}, {User, "hello world"}, {Call, "Bash"}, {Result, "out"}}, 1},
		{"wrong kind", []Item{{Assistant, "hello world"}, {Call, "Bash"}, {Result, "out"}, {Assistant, "done"}}, 1},
		{"nothing", nil, 4},
	}
	for _, c := range cases {
		if m := Missing(want, c.got); len(m) != c.miss {
			t.Errorf("%s: missing %v, want %d missing", c.name, m, c.miss)
		}
	}
}

func TestExpectedFollowsTheActivePath(t *testing.T) {
	// The bundled pi sample has three branches; its active path ends at
	// the last entry, and no item of an abandoned branch may be wanted.
	ss := Sessions(t, "tree", "../../../testdata/samples/tree/pi-v3-branches.jsonl")
	if len(ss) != 1 {
		t.Fatalf("%d sessions", len(ss))
	}
	got := Expected(ss[0])
	if len(got) == 0 || got[0].Kind != User {
		t.Fatalf("Expected = %v", got)
	}
	all := 0
	for _, e := range ss[0].Entries {
		if e.Message != nil {
			all += len(items(e.Message))
		}
	}
	if len(got) >= all {
		t.Fatalf("the active path has %d items of %d in the file: branches were not left out", len(got), all)
	}
}
