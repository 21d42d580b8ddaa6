package claude

import (
	"os"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// A thinking block from another layout never reaches Claude Code: the
// Anthropic API refuses a thinking block without Anthropic's signature
// for it. The writer leaves it out (a message of thinking alone with it),
// counts it, and does not say Claude Code keeps no signature.
func TestForeignThinkingLeftOut(t *testing.T) {
	think := func(sig string) session.Block {
		return session.Block{Type: session.BlockThinking, Text: "pondering", Signature: sig}
	}
	text := session.Block{Type: session.BlockText, Text: "hello"}
	cases := []struct {
		name    string
		content []session.Block
		lines   int // assistant lines written
		lost    int
	}{
		{"unsigned thinking and text", []session.Block{think(""), text}, 1, 1},
		{"another provider's signature", []session.Block{think("gAAAA-openai-encrypted"), text}, 1, 1},
		{"thinking alone", []session.Block{think("sig")}, 0, 1},
		{"no thinking", []session.Block{text}, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{ID: "s1", Cwd: "/home/dev/app", Source: session.Source{Origin: "tree"}}, Entries: []*session.Entry{
				{ID: "u", Kind: session.KindMessage, Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "hi"}}}},
				{ID: "a", ParentID: "u", Kind: session.KindMessage, Message: &session.Message{Role: session.RoleAssistant, Content: c.content}},
				{ID: "u2", ParentID: "a", Kind: session.KindMessage, Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "next"}}}},
			}}
			for _, e := range s.Entries {
				e.Origin = "tree"
			}
			lost := &loss.Counter{}
			files, err := convert.Write(Format{}, &session.SliceReader{S: s}, t.TempDir(), format.WriteOptions{}, lost)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(raw), `"thinking"`) {
				t.Errorf("a thinking block is written:\n%s", raw)
			}
			if n := strings.Count(string(raw), `"type":"assistant"`); n != c.lines {
				t.Errorf("%d assistant lines, want %d", n, c.lines)
			}
			if !strings.Contains(string(raw), `"parentUuid":null`) || strings.Count(string(raw), `"parentUuid":null`) != 1 {
				t.Errorf("the lines are not one chain:\n%s", raw)
			}
			n := 0
			for _, it := range lost.Items() {
				if strings.Contains(it.Reason, "keeps no signature") {
					t.Errorf("loss says Claude Code keeps no signature: %s", it)
				}
				if it.Kind == loss.Block(session.BlockThinking) {
					n += it.Count
					if !strings.Contains(it.Reason, "signature Anthropic issued") {
						t.Errorf("loss reason %q does not say why", it.Reason)
					}
				}
			}
			if n != c.lost {
				t.Errorf("%d thinking blocks counted lost, want %d: %v", n, c.lost, lost.Items())
			}
		})
	}
}
