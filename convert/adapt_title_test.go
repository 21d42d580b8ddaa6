package convert

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	for _, tc := range []struct {
		name   string
		to     format.Caps
		origin string
		title  string
		want   []string // "count kind action: reason"
	}{
		{"single file", home.InFile(), "src", "t", []string{"1 session-title dropped: x keeps a session's title only in its home's index, which a single file cannot hold"}},
		{"own session, single file", home.InFile(), "hm", "t", []string{"1 session-title dropped: x keeps a session's title only in its home's index, which a single file cannot hold"}},
		{"the layout's words", worded.InFile(), "src", "t", []string{"1 session-title dropped: kept in the index"}},
		{"into the home", home, "src", "t", nil},
		{"no title", home.InFile(), "src", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{Title: tc.title, Source: session.Source{Origin: tc.origin}}, Entries: []*session.Entry{msg("a", "", session.RoleUser)}}
			lost := &loss.Counter{}
			r, err := Adapt(&session.SliceReader{S: s}, nil, tc.to, "x", lost)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := session.ReadAll(r); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range lost.Items() {
				got = append(got, fmtItem(it))
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("losses (-want +got):\n%s", d)
			}
		})
	}
}

// fmtItem is a counted loss with its reason, as the report gives it.
func fmtItem(it loss.Item) string {
	return fmt.Sprintf("%d %s %s: %s", it.Count, it.Kind, it.Action, it.Reason)
}
