package tree

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// TestOwnSessionForeignEntry: a session of pi's own passes through convert
// untouched, so an entry of another layout in it was adapted by nothing; the
// writer refuses it, naming the entry, where it once wrote it by the rules
// for another layout's session. A session of pi's own with pi's entries
// only is written.
func TestOwnSessionForeignEntry(t *testing.T) {
	entry := func(id, origin string) *session.Entry {
		return &session.Entry{ID: id, Kind: session.KindMessage, Time: session.FromMillis(1000), Source: session.Source{Origin: origin},
			Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "hi"}}}}
	}
	for _, tc := range []struct {
		name    string
		entries []*session.Entry
		want    string // "" for written
	}{
		{"pi's entries only", []*session.Entry{entry("aaaaaaa1", Name)}, ""},
		{"another layout's entry", []*session.Entry{entry("aaaaaaa1", Name), entry("bbbbbbb2", "claude")}, "entry bbbbbbb2: of claude, in a session of pi's own"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{ID: "11111111-1111-4111-8111-111111111111", Created: session.FromMillis(1000),
				Source: session.Source{Origin: Name}}, Entries: tc.entries}
			var out bytes.Buffer
			err := convert.WriteTo(Format{}, &out, &session.SliceReader{S: s}, format.WriteOptions{}, nil)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("write: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("write: %v, want an error naming %q", err, tc.want)
			}
		})
	}
}
