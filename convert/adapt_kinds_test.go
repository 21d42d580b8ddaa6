package convert

import (
	"testing"

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
	cases := []adaptCase{
		{name: "dropped", to: drops, entries: entries(), want: []string{"a< user", "c<a custom_message", "d<c user"},
			lost: []string{"1 compaction-entry dropped"}, why: []string{"compaction-entry dropped: x has message entries only"}},
		{name: "the layout's words", to: worded, entries: entries(), want: []string{"a< user", "c<a custom_message", "d<c user"},
			lost: []string{"1 compaction-entry dropped"}, why: []string{"compaction-entry dropped: no summary to resume from"}},
		{name: "held", to: held, entries: entries(), want: []string{"a< user", "b<a compaction", "c<b custom_message", "d<c user"}},
		{name: "not declared", to: base, entries: entries(), want: []string{"a< user", "b<a compaction", "c<b custom_message", "d<c user"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}
