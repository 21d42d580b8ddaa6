package gemini_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/gemini"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

const samples = "../../testdata/samples/gemini/"

// jsonlSamples are the JSON Lines samples: the agent's own live session,
// a hand-made one with rewinds, $set and notices, and a home's main
// session and sub-agent.
func jsonlSamples(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(samples + "*.jsonl")
	home, _ := filepath.Glob(samples + "home/.gemini/tmp/*/chats/*.jsonl")
	sub, _ := filepath.Glob(samples + "home/.gemini/tmp/*/chats/*/*.jsonl")
	files = append(append(files, home...), sub...)
	if len(files) < 4 {
		t.Fatalf("only %d JSON Lines samples", len(files))
	}
	return files
}

func write(t *testing.T, r session.Reader, lost *loss.Counter) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := convert.WriteTo(gemini.Format{}, &b, r, format.WriteOptions{}, lost); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func open(t *testing.T, p string) session.Reader {
	t.Helper()
	r, err := (gemini.Format{}).Open(format.Ref{Path: p})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRoundTripBytes: a JSON Lines session read and written back is the
// same file, every version of a message, $set and rewind included.
func TestRoundTripBytes(t *testing.T) {
	for _, p := range jsonlSamples(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			want, _ := os.ReadFile(p)
			r := open(t, p)
			if !(gemini.Format{}).Verbatim(r) {
				t.Errorf("a session straight from its file is not copied verbatim")
			}
			if got := write(t, r, nil); !bytes.Equal(got, want) {
				t.Errorf("written back differs:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestLegacyWrittenAsMigrated: a legacy document is written as the JSON
// Lines file migrate makes of it (golden), which itself round-trips.
func TestLegacyWrittenAsMigrated(t *testing.T) {
	docs := []string{samples + "legacy.json"}
	real, _ := filepath.Glob(filepath.Join(shared.Dir(), "real-world", "gemini", "*.json"))
	for _, p := range append(docs, real...) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			got := write(t, open(t, p), nil)
			rep := &report.Report{}
			if err := (gemini.Format{}).ValidateReader("out", bytes.NewReader(got), rep, format.ValidateOptions{}); err != nil {
				t.Fatal(err)
			}
			if rep.Errors() > 0 {
				t.Errorf("the migrated session does not validate: %v", rep.Findings())
			}
			if p == docs[0] {
				golden.Assert(t, "migrated/legacy.jsonl", got)
			}
			r, err := (gemini.Format{}).OpenReader("out", bytes.NewReader(got))
			if err != nil {
				t.Fatal(err)
			}
			if again := write(t, r, nil); !bytes.Equal(again, got) {
				t.Errorf("the migrated session does not round-trip")
			}
			before, after := digest(t, open(t, p)), digest(t, r2(t, got))
			if before != after {
				t.Errorf("migrated session reads differently:\n%s\nwant:\n%s", after, before)
			}
		})
	}
}

func r2(t *testing.T, b []byte) session.Reader {
	t.Helper()
	r, err := (gemini.Format{}).OpenReader("out", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// digest is what a session says, one line per message: role, text,
// thinking, tool calls and results, usage and model.
func digest(t *testing.T, r session.Reader) string {
	t.Helper()
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "title %q\n", s.Meta.Title)
	for _, e := range s.Entries {
		if !e.IsMessage() || e.Sidechain != "" {
			continue // sub-agent runs are files of their own in this layout
		}
		m := e.Message
		fmt.Fprintf(&b, "%s model=%q err=%v call=%q", m.Role, m.Model, m.IsError, m.ToolCallID)
		if u := m.Usage; u != nil {
			fmt.Fprintf(&b, " usage=%d/%d/%d/%d/%d", u.Input, u.Output, u.CacheRead, u.Reasoning, u.TotalTokens())
		}
		for _, bl := range m.Content {
			fmt.Fprintf(&b, " [%s %q %s %s %q %s]", bl.Type, bl.Text, bl.ToolCallID, bl.ToolName, bl.Arguments, bl.MimeType)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// foreign is a session read by this layout passed off as another
// layout's: its sources cleared, so the writer encodes it from the model.
func foreign(t *testing.T, p string) session.Reader {
	t.Helper()
	s, err := session.ReadAll(open(t, p))
	if err != nil {
		t.Fatal(err)
	}
	s.Meta.Source = session.Source{Origin: "other"}
	s.Meta.Extra = nil
	for _, e := range s.Entries {
		e.Source = session.Source{Origin: "other"}
		e.Extra = nil
		if e.Message != nil {
			e.Message.Extra = nil
			for i := range e.Message.Content {
				e.Message.Content[i].Source = session.Source{}
				e.Message.Content[i].Extra = nil
			}
			if u := e.Message.Usage; u != nil {
				u.Extra = nil
			}
		}
	}
	return &session.SliceReader{S: s}
}

// TestModelEncoding: the model's own encoding of every sample (the writer
// of a session from another layout) reads back as the same conversation:
// the same messages, tool calls paired with their results, usage, models.
func TestModelEncoding(t *testing.T) {
	for _, p := range append(jsonlSamples(t), samples+"legacy.json") {
		t.Run(filepath.Base(p), func(t *testing.T) {
			lost := &loss.Counter{}
			got := write(t, foreign(t, p), lost)
			rep := &report.Report{}
			if err := (gemini.Format{}).ValidateReader("out", bytes.NewReader(got), rep, format.ValidateOptions{}); err != nil {
				t.Fatal(err)
			}
			if rep.Errors()+rep.Warnings() > 0 {
				t.Errorf("the encoding does not validate clean: %v\n%s", rep.Findings(), got)
			}
			want, have := digest(t, open(t, p)), digest(t, r2(t, got))
			// A thought's subject is written into its text ("**S** D"),
			// as the agent sends it back; it reads back as that text.
			if want != have {
				t.Errorf("the encoding reads back differently:\n%s\nwant:\n%s", have, want)
			}
		})
	}
}

// TestWriterGolden pins how a pi session is spelt as Gemini CLI's file,
// with its loss report: the active path, thinking as thoughts, each tool
// call with its result, the user's bash runs and custom messages as user
// messages.
func TestWriterGolden(t *testing.T) {
	tree, _ := registry.Lookup("tree")
	src := "../../testdata/samples/tree/pi-v3-branches.jsonl"
	r, err := tree.Open(format.Ref{Path: src})
	if err != nil {
		t.Fatal(err)
	}
	lost := &loss.Counter{}
	var b bytes.Buffer
	opt := format.WriteOptions{Reopen: func() (session.Reader, error) { return tree.Open(format.Ref{Path: src}) }}
	if err := convert.WriteTo(gemini.Format{}, &b, r, opt, lost); err != nil {
		t.Fatal(err)
	}
	rep := &report.Report{}
	if err := (gemini.Format{}).ValidateReader("out", bytes.NewReader(b.Bytes()), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if rep.Errors()+rep.Warnings() > 0 {
		t.Errorf("the output does not validate clean: %v", rep.Findings())
	}
	for _, it := range lost.Items() {
		fmt.Fprintf(&b, "loss: %d %s %s (%s)\n", it.Count, it.Kind, it.Action, it.Reason)
	}
	golden.Assert(t, "writer/pi-v3-branches.txt", b.Bytes())
}

// TestSubagentRuns: a session of a home brings its sub-agents' runs
// (chats/<sessionId>/*.jsonl) after its own entries: a subagent entry
// naming the call that ran it, the run on its sidechain, a subagent_end
// with its last reply; its own file is still written back alone.
func TestSubagentRuns(t *testing.T) {
	main := samples + "home/.gemini/tmp/proj/chats/session-2026-03-04T10-00-3f0c2a52.jsonl"
	s, err := session.ReadAll(open(t, main))
	if err != nil {
		t.Fatal(err)
	}
	const sub = "4a9e8b7c-0d1f-4e2a-8b3c-5d6e7f8a9b0c"
	var got []string
	for _, e := range s.Entries {
		switch {
		case e.Kind == session.KindSubagent:
			got = append(got, "start "+e.Subagent.ID+" "+e.Subagent.ParentToolCallID)
		case e.Kind == session.KindSubagentEnd:
			got = append(got, "end "+e.Subagent.Result)
		case e.Sidechain != "":
			got = append(got, string(e.Message.Role)+" on "+e.Sidechain)
		}
	}
	want := []string{"start " + sub + " codebase_investigator_1772618402000_0", "user on " + sub, "assistant on " + sub, "end There are 2 files."}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sub-agent entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// through a reader that is not the layout's own, the file is its own
	// records only
	b, _ := os.ReadFile(main)
	var out bytes.Buffer
	if err := (gemini.Format{}).WriteTo(&out, &session.SliceReader{S: s}, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), b) {
		t.Errorf("written back through the model:\n%s\nwant:\n%s", out.Bytes(), b)
	}
}
