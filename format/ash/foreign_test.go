package ash

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// foreign is a session as another layout's reader would produce it.
func foreign() *session.Session {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 123456000, time.UTC)
	at := func(s int) session.Time { return session.Time{T: t0.Add(time.Duration(s) * time.Second)} }
	return &session.Session{
		Meta: session.Meta{ID: "abc12345", Source: session.Source{Origin: "tree"}, Created: session.Time{T: t0}, Provider: "anthropic"},
		Entries: []*session.Entry{
			{Kind: session.KindMessage, ID: "e1", Time: at(1), Message: &session.Message{Role: session.RoleUser,
				Content: []session.Block{{Type: session.BlockText, Text: "héllo <b>"}, {Type: session.BlockImage, Data: "AAAA", MimeType: "image/png"}}}},
			{Kind: session.KindMessage, ID: "e2", ParentID: "e1", Time: at(2), Message: &session.Message{Role: session.RoleAssistant,
				Content: []session.Block{{Type: session.BlockThinking, Text: "hmm"}, {Type: session.BlockText, Text: "Looking."},
					{Type: session.BlockToolCall, ToolCallID: "call_1", ToolName: "bash", Arguments: []byte(`{"cmd":"ls"}`)}}}},
			{Kind: session.KindMessage, ID: "e3", ParentID: "e2", Time: at(3), Message: &session.Message{Role: session.RoleTool,
				ToolCallID: "call_1", IsError: true, Content: []session.Block{{Type: session.BlockText, Text: "boom"}}}},
			{Kind: session.KindLabel, ID: "e4", ParentID: "e3", Label: &session.Label{TargetID: "e1", Label: "x"}},
			{Kind: session.KindCompaction, ID: "e5", ParentID: "e4", Time: at(5), Compaction: &session.Compaction{Summary: "s", FirstKeptID: "e2"}},
			{Kind: session.KindMessage, ID: "e6", ParentID: "e5", Message: &session.Message{Role: session.RoleAssistant,
				Content: []session.Block{{Type: session.BlockText, Text: "done"}}}},
		},
	}
}

// TestWriteForeign writes a session from another layout: deterministic
// UUIDs, Python timestamps, both storages of the tool call, losses counted,
// and a result the validator accepts.
func TestWriteForeign(t *testing.T) {
	out := t.TempDir()
	lost := &loss.Counter{}
	files, err := convert.Write(Format{}, &session.SliceReader{S: foreign()}, out, format.WriteOptions{}, lost)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(files[0])
	var b strings.Builder
	for _, name := range []string{ContextFile, HistoryFile, StateFile} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("== " + name + "\n" + string(data) + "\n")
	}
	b.WriteString("== directory " + filepath.Base(dir) + "\n== loss\n")
	for _, it := range lost.Items() {
		b.WriteString(it.String() + "\n")
	}
	golden.Assert(t, "foreign.txt", []byte(b.String()))
	rep := &report.Report{}
	if err := (Format{}).Validate(dir, rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if rep.Errors()+rep.Warnings() > 0 {
		t.Errorf("written session has findings: %v", rep.Findings())
	}
	// Deterministic: a second write gives the same bytes.
	out2 := t.TempDir()
	files2, err := convert.Write(Format{}, &session.SliceReader{S: foreign()}, out2, format.WriteOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(files[0])
	c, _ := os.ReadFile(files2[0])
	if string(a) != string(c) {
		t.Error("two writes of the same session differ")
	}
	// An existing session directory is refused without Force, replaced with it.
	if _, err := convert.Write(Format{}, &session.SliceReader{S: foreign()}, out, format.WriteOptions{}, nil); err == nil {
		t.Error("overwrote an existing session without Force")
	}
	if _, err := convert.Write(Format{}, &session.SliceReader{S: foreign()}, out, format.WriteOptions{Force: true}, nil); err != nil {
		t.Errorf("Force: %v", err)
	}
	ents, _ := os.ReadDir(out)
	if len(ents) != 1 {
		t.Errorf("container holds %d entries after a forced write, want 1", len(ents))
	}
}

// TestUnsafeSidechain: an id that is not a plain file name never becomes a path.
func TestUnsafeSidechain(t *testing.T) {
	s := &session.Session{Meta: session.Meta{ID: "s", Source: session.Source{Origin: Name}, Version: "2", Provider: "cli"},
		Entries: []*session.Entry{{Kind: session.KindMessage, ID: "m", Sidechain: "../../etc", Source: session.Source{Origin: Name},
			Message: &session.Message{Role: session.RoleUser, ContentIsString: true, Content: []session.Block{{Type: session.BlockText, Text: "x"}}}}}}
	out := t.TempDir()
	if _, err := convert.Write(Format{}, &session.SliceReader{S: s}, out, format.WriteOptions{}, nil); err == nil {
		t.Fatal("wrote a sub-agent file named by ../../etc")
	}
	ents, _ := os.ReadDir(out)
	if len(ents) != 0 {
		t.Errorf("a failed write left %v", ents)
	}
}

func TestSessionKey(t *testing.T) {
	long := strings.Repeat("x", 70)
	for _, c := range []struct{ p, chat, user, thread, want string }{
		{"cli", "", "", "", "cli"},
		{"api", "", "abc", "", "api_abc"},
		{"telegram", "123", "u1", "42", "telegram_123_u1_42"},
		{"cli", "", "test@user.com", "", "cli_test_user_com"},
		{"telegram", "-542863895", "958786881", "77", "telegram_-542863895_958786881_77"},
		{"x", "__", "", "", "x_default"},
		{"x", long, "", "", "x_" + long[:51] + "_" + "b7f2e0d5a4ff"[:0] + sanitize(long)[52:]},
	} {
		if got := SessionKey(c.p, c.chat, c.user, c.thread); got != c.want {
			t.Errorf("SessionKey(%q,%q,%q,%q) = %q, want %q", c.p, c.chat, c.user, c.thread, got, c.want)
		}
	}
	if n := len(sanitize(long)); n != 64 {
		t.Errorf("long part is %d chars, want 64", n)
	}
	if got := v1SessionKey("telegram", "-542863895", "958786881", "77"); got != "telegram_-542863895_77" {
		t.Errorf("v1 key %q", got)
	}
}

func TestDetect(t *testing.T) {
	f := Format{}
	cases := map[string]bool{
		"testdata/generated-v2/sessions":                   true, // a store
		"testdata/generated-v2/sessions/cli":               true,
		"testdata/generated-v2":                            false,
		"testdata/generated-v2/sessions/cli/context.jsonl": false,
	}
	if p, ok := shared.Lookup(upstream + "/invalid/header-missing-id"); ok {
		cases[p] = true // a header the schema refuses is still ash's
	}
	for p, want := range cases {
		if got := f.Detect(p); got != want {
			t.Errorf("Detect(%s) = %v, want %v", p, got, want)
		}
	}
	refs, err := f.Sessions("testdata/generated-v2/sessions")
	if err != nil || len(refs) != 2 {
		t.Errorf("Sessions: %v %v", refs, err)
	}
	// A file of a session stands for its directory.
	for _, p := range []string{"testdata/generated-v2/sessions/cli/context.jsonl", "testdata/generated-v2/sessions/cli/subagents/fb5a5abc-bbbb-4d30-a90d-e926458e34ed.jsonl"} {
		refs, err = f.Sessions(p)
		if err != nil || len(refs) != 1 || refs[0].Path != "testdata/generated-v2/sessions/cli" {
			t.Errorf("Sessions(%s): %v %v", p, refs, err)
		}
	}
	if _, err := f.Sessions("testdata/README.md"); err == nil {
		t.Error("Sessions accepted a file outside any session")
	}
}
