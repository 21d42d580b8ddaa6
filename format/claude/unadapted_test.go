package claude

import (
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// An entry Claude Code has no line for is dropped and counted by mapping
// (caps.NoLineWhy); one that reaches the writer unadapted is an error
// naming it, never skipped.
func TestWriterRefusesWhatItHasNoLineFor(t *testing.T) {
	user := &session.Entry{ID: "a", Kind: session.KindMessage, Source: session.Source{Origin: "tree"},
		Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "hi"}}}}
	for _, e := range []*session.Entry{
		{ID: "k", ParentID: "a", Kind: session.KindCompaction, Source: session.Source{Origin: "tree"}},
		{ID: "x", ParentID: "a", Kind: session.KindCustomMessage, Source: session.Source{Origin: "tree"}},
	} {
		t.Run(string(e.Kind), func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{ID: "s", Source: session.Source{Origin: "tree"}}, Entries: []*session.Entry{user, e}}
			_, err := Format{}.Write(&session.SliceReader{S: s}, t.TempDir(), format.WriteOptions{})
			if err == nil || !strings.Contains(err.Error(), `"`+e.ID+`"`) {
				t.Errorf("err = %v, want one naming entry %s", err, e.ID)
			}
		})
	}
}
