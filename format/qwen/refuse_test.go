package qwen

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// A session of another layout with no user, assistant or tool message
// would be a file validate refuses (no-conversation) and Qwen Code lists
// no conversation of: the writer refuses it as nothing this layout can
// hold (what convert reports as not written), and leaves no file. A
// session with a message is written, and validates.
func TestWriteRefusesNoConversation(t *testing.T) {
	const id = "5d0c6a4e-3b7e-4f38-9a51-2f8d0c1e7a10"
	titled := foreignSession(id)
	titled.Meta.Title = "a title alone"
	for _, c := range []struct {
		name   string
		s      *session.Session
		refuse bool
	}{
		{name: "no entry", s: foreignSession(id), refuse: true},
		{name: "a title alone (a system line)", s: titled, refuse: true},
		{name: "a title change alone", s: foreignSession(id, &session.Entry{Kind: session.KindSessionInfo, Title: "renamed"}), refuse: true},
		{name: "an entry Qwen Code has no line for", s: foreignSession(id, &session.Entry{Kind: session.KindLabel}), refuse: true},
		{name: "a user message", s: foreignSession(id, msg(session.RoleUser, text("hi")))},
		{name: "a tool result alone", s: foreignSession(id, result("a"))},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.jsonl")
			_, err := convert.Write(Format{}, &session.SliceReader{S: c.s}, out, format.WriteOptions{}, &loss.Counter{})
			_, statErr := os.Stat(out)
			if !c.refuse {
				if err != nil {
					t.Fatalf("write: %v", err)
				}
				rep := &report.Report{}
				if err := (Format{}).Validate(out, rep, format.ValidateOptions{}); err != nil {
					t.Fatal(err)
				}
				if rep.Errors() != 0 {
					t.Errorf("the written file has %d validate errors: %v", rep.Errors(), rep.Findings())
				}
				return
			}
			if !errors.Is(err, format.ErrNothingToWrite) {
				t.Fatalf("write: %v, want a refusal (%v)", err, format.ErrNothingToWrite)
			}
			var ec *exitcode.Error
			if !errors.As(err, &ec) || ec.Code != exitcode.Invalid {
				t.Errorf("refusal %v: want exit code %d", err, exitcode.Invalid)
			}
			if !errors.Is(statErr, os.ErrNotExist) {
				t.Errorf("a refused session left %s (stat: %v)", out, statErr)
			}
		})
	}
}
