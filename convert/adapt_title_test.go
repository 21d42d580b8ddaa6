package convert

import (
	"fmt"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// TestTitleHomeOnly: a layout keeping titles only in its home's index
// loses the title in a single file (InFile), its own sessions' too, with
// its own words when it declares them; in its home nothing is lost.
func TestTitleHomeOnly(t *testing.T) {
	home := format.Caps{Own: []string{"hm"}, Linear: true, Roles: []session.Role{session.RoleUser}, Blocks: []session.BlockType{session.BlockText}, TitleInHome: true}
	worded := home
	worded.LossReasons = map[loss.Kind]string{loss.SessionTitle: "kept in the index"}
	titled := func(origin, title string) func(*session.Meta) {
		return func(m *session.Meta) { m.Source.Origin, m.Title = origin, title }
	}
	one := []string{"1 session-title dropped"}
	cases := []adaptCase{
		{name: "single file", to: home.InFile(), meta: titled("src", "t"), lost: one, why: []string{"session-title dropped: x keeps a session's title only in its home's index, which a single file cannot hold"}},
		{name: "own session, single file", to: home.InFile(), meta: titled("hm", "t"), lost: one, why: []string{"session-title dropped: x keeps a session's title only in its home's index, which a single file cannot hold"}},
		{name: "the layout's words", to: worded.InFile(), meta: titled("src", "t"), lost: one, why: []string{"session-title dropped: kept in the index"}},
		{name: "into the home", to: home, meta: titled("src", "t")},
		{name: "no title", to: home.InFile(), meta: titled("src", "")},
	}
	for _, c := range cases {
		c.entries, c.want = []*session.Entry{msg("a", "", session.RoleUser)}, []string{"a< user"}
		t.Run(c.name, c.check)
	}
}

// fmtItem is a counted loss with its reason, as the report gives it.
func fmtItem(it loss.Item) string {
	return fmt.Sprintf("%d %s %s: %s", it.Count, it.Kind, it.Action, it.Reason)
}
