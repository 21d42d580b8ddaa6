package copilot_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/copilot"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// sources are one sample of every other layout sesstool reads.
var sources = []struct{ layout, path string }{
	{"tree", "../../testdata/samples/tree/pi-v3-branches.jsonl"},
	{"flat", "../../testdata/samples/flat/20261121-042424-f487536d.jsonl"},
	{"ash", "../../testdata/samples/ash/generated-v2"},
	{"claude", "../../testdata/samples/claude/store"},
	{"codex", "../../testdata/samples/codex/home"},
	{"goat", "../../testdata/samples/goat/generated"},
	{"opencode-export", "../../testdata/samples/opencode/export/v1.1.34__ses_e03a7a64affe0wHc2prdw2R2s7.json"},
	{"opencode", "../../testdata/samples/opencode/xdg/opencode"},
	{"model", "../../testdata/samples/model/features.model.jsonl"},
}

// Beside Copilot CLI resuming them (oracle.TestCopilotResume), the CLI's
// own event schema is an oracle for sessions converted into its layout,
// one that needs no agent run: every session of a sample of every other
// layout, written as Copilot's log, validates with sesstool and with ajv
// against schema/copilot (derived from Copilot CLI 1.0.102's schema), and
// reads back with the messages, tool calls and sub-agent runs the
// conversion kept (the source as convert.Adapt gives it to the writer).
func TestConvertedFromEveryLayout(t *testing.T) {
	out := t.TempDir()
	var files []string
	for _, src := range sources {
		f, err := registry.Lookup(src.layout)
		if err != nil {
			t.Fatal(err)
		}
		refs, err := f.Sessions(src.path)
		if err != nil {
			t.Fatalf("%s: %v", src.layout, err)
		}
		for i, ref := range refs {
			open := func() (session.Reader, error) { return f.Open(ref) }
			want := adaptedCounts(t, open)
			r, err := open()
			if err != nil {
				t.Fatalf("%s %s: %v", src.layout, ref.Path, err)
			}
			var buf bytes.Buffer
			lost := &loss.Counter{}
			if err := convert.WriteTo(copilot.Format{}, &buf, r, format.WriteOptions{Reopen: open}, lost); err != nil {
				t.Fatalf("%s %s: write: %v", src.layout, ref.Path, err)
			}
			p := filepath.Join(out, src.layout+"-"+string(rune('a'+i))+".jsonl")
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
			rep := &report.Report{}
			if err := (copilot.Format{}).Validate(p, rep, format.ValidateOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, fd := range rep.Findings() {
				t.Errorf("%s %s: %s", src.layout, ref.Path, fd.Text())
			}
			back, err := (copilot.Format{}).Open(format.Ref{Path: p})
			if err != nil {
				t.Fatalf("%s: read back: %v", p, err)
			}
			if got := countsOf(t, back); got != want {
				t.Errorf("%s %s: read back %+v, the conversion kept %+v", src.layout, ref.Path, got, want)
			}
		}
	}
	got := peers.AjvFiles(t, "../../schema/copilot/v1", "../../schema/copilot/v1/line.json", files)
	for _, p := range files {
		if n := got[p]; n.Lines == 0 || n.Invalid != 0 {
			t.Errorf("%s: ajv: %+v", p, n)
		}
	}
}

// kept is what a session holds that Copilot's log keeps.
type kept struct {
	Messages, ToolCalls, Subagents, Sidechain int
	Text                                      int // bytes of text, blocks joined as Message.Text does
}

func countsOf(t *testing.T, r session.Reader) kept {
	t.Helper()
	defer r.Close()
	var k kept
	err := session.Each(r, func(e *session.Entry) error {
		if e.Sidechain != "" && e.IsMessage() {
			// a run's messages: its usage records are events of their own
			// in Copilot's log
			k.Sidechain++
		}
		if e.Kind == session.KindSubagent {
			k.Subagents++
		}
		if e.IsMessage() {
			k.Messages++
			k.Text += len(e.Message.Text())
			for _, b := range e.Message.Content {
				if b.Type == session.BlockToolCall {
					k.ToolCalls++
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// adaptedCounts counts the session as the writer is given it.
func adaptedCounts(t *testing.T, open func() (session.Reader, error)) kept {
	t.Helper()
	r, err := open()
	if err != nil {
		t.Fatal(err)
	}
	caps := (copilot.Format{}).Caps()
	a, err := convert.Adapt(r, open, caps, caps.Display, nil)
	if err != nil {
		t.Fatal(err)
	}
	return countsOf(t, a)
}
