package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/format/tree"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

const store = "../../testdata/samples/claude/store"

// realWorld is every entry of the shared real-world Claude Code sessions.
func realWorld(t *testing.T) []string {
	t.Helper()
	dir := filepath.Join(shared.Dir(), "real-world", "claude")
	ents, err := os.ReadDir(dir)
	if err != nil {
		peers.Need(t, "real-world Claude Code sessions not found in "+dir+" (set SESSTOOL_SHARED)")
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.Name() != "SOURCES.md" {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return append(out, store)
}

// The sessions Claude Code 2.0.64-2.1.152 wrote validate without an error,
// and are detected as claude.
func TestRealWorldValidates(t *testing.T) {
	for _, p := range realWorld(t) {
		rep := &report.Report{}
		if err := (Format{}).Validate(p, rep, format.ValidateOptions{}); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, f := range rep.Findings() {
			if f.Severity == report.Error {
				t.Errorf("%s", f.Text())
			}
		}
		if s := rep.Summary(); s.Entries == 0 {
			t.Errorf("%s: no lines counted", p)
		}
		if !(Format{}).Detect(p) {
			t.Errorf("%s: not detected as claude", p)
		}
	}
}

// A session read and written back as claude is the same bytes, sub-agent
// files included, and lands where Claude Code looks for it.
func TestRoundTrip(t *testing.T) {
	for _, p := range realWorld(t) {
		refs, err := (Format{}).Sessions(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range refs {
			out := t.TempDir()
			r, err := (Format{}).Open(ref)
			if err != nil {
				t.Fatal(err)
			}
			m := *r.Meta()
			written, err := (Format{}).Write(r, out, format.WriteOptions{})
			if err != nil {
				t.Fatalf("%s: %v", ref.Path, err)
			}
			want := filepath.Join(out, "projects", EncodeCwd(m.Cwd), SessionID(&m)+".jsonl")
			if written[0] != want {
				t.Errorf("%s: written to %s, want %s", ref.Path, written[0], want)
			}
			same(t, ref.Path, written[0])
			subs := subagentFiles(ref.Path, m.ID)
			if len(written) < 1+len(subs) {
				t.Errorf("%s: %d sub-agent files written, want %d", ref.Path, len(written)-1, len(subs))
			}
			for _, s := range subs {
				got := filepath.Join(strings.TrimSuffix(written[0], ".jsonl"), SubagentDir, filepath.Base(s))
				same(t, s, got)
			}
		}
	}
}

func same(t *testing.T, want, got string) {
	t.Helper()
	a, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(got)
	if err != nil {
		t.Errorf("%s: %v", want, err)
		return
	}
	if !bytes.Equal(a, b) {
		t.Errorf("%s: written back differently (%d bytes, want %d)", want, len(b), len(a))
	}
}

func readStore(t *testing.T) *session.Session {
	t.Helper()
	refs, err := (Format{}).Sessions(store)
	if err != nil || len(refs) != 1 {
		t.Fatalf("sessions of the store: %v %v", refs, err)
	}
	r, err := (Format{}).Open(refs[0])
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The three lines of one API message are one message, its usage counted
// once; the sub-agent run follows the tool result that names it.
func TestReadJoinsAndNests(t *testing.T) {
	s := readStore(t)
	var first *session.Entry
	var output int64
	sideAfter := ""
	for i, e := range s.Entries {
		if first == nil && e.Message != nil && e.Message.Role == session.RoleAssistant {
			first = e
		}
		if e.Message != nil && e.Message.Usage != nil {
			output += e.Message.Usage.Output
		}
		if e.Kind == session.KindSubagent && i > 0 {
			sideAfter = s.Entries[i-1].ID
		}
	}
	if first == nil || len(first.Message.Content) != 3 {
		t.Fatalf("first assistant message: %+v", first)
	}
	types := []session.BlockType{session.BlockThinking, session.BlockText, session.BlockToolCall}
	for i, b := range first.Message.Content {
		if b.Type != types[i] {
			t.Errorf("block %d is %s, want %s", i, b.Type, types[i])
		}
	}
	if first.Message.Content[0].Signature != "c2lnbmF0dXJlLW9uZQ==" {
		t.Errorf("signature %q", first.Message.Content[0].Signature)
	}
	if first.ID != "00000000-0000-4000-8000-000000000004" || first.ParentID != "00000000-0000-4000-8000-000000000001" {
		t.Errorf("joined message is %s under %s", first.ID, first.ParentID)
	}
	if output != 160 { // four API messages of 40 output tokens, written on six lines
		t.Errorf("output tokens %d, want 160", output)
	}
	if sideAfter != "00000000-0000-4000-8000-000000000006" {
		t.Errorf("the sub-agent run follows %q, want the tool result line", sideAfter)
	}
	c := convtree.NewConversation(s.Entries, s.Meta.MessageLinks)
	if _, branches := convtree.ActivePath(s.Entries, s.Meta.MessageLinks); branches != 2 {
		t.Errorf("%d branches, want 2", branches)
	}
	if c.Path()[len(c.Path())-1].Type != "custom-title" {
		t.Errorf("leaf %+v", c.Path()[len(c.Path())-1])
	}
}

// A line type sesstool does not know is a warning, never an error.
func TestUnknownLineType(t *testing.T) {
	rep := &report.Report{}
	if err := (Format{}).Validate(store, rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range rep.Findings() {
		rules = append(rules, string(f.Severity)+" "+f.Rule)
	}
	if strings.Join(rules, ",") != "warning unknown-line-type" {
		t.Errorf("findings %v, want one unknown-line-type warning", rules)
	}
}

// A branch of a pi session becomes a Claude Code branch (a tree by
// parentUuid), and a signature from elsewhere is a named loss.
func TestFromPiKeepsBranches(t *testing.T) {
	src := "../../testdata/samples/tree/pi-v3-branches.jsonl"
	r, err := (tree.Format{}).Open(format.Ref{Path: src})
	if err != nil {
		t.Fatal(err)
	}
	in, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	_, wantBranches := convtree.ActivePath(in.Entries, in.Meta.MessageLinks)
	out := t.TempDir()
	lost := &loss.Counter{}
	written, err := convert.Write(Format{}, &session.SliceReader{S: in}, out, format.WriteOptions{}, lost)
	if err != nil {
		t.Fatal(err)
	}
	rep := &report.Report{}
	if err := (Format{}).Validate(written[0], rep, format.ValidateOptions{}); err != nil || rep.Errors() > 0 {
		t.Fatalf("written file does not validate: %v %v", err, rep.Findings())
	}
	back, err := (Format{}).Open(format.Ref{Path: written[0]})
	if err != nil {
		t.Fatal(err)
	}
	got, err := session.ReadAll(back)
	if err != nil {
		t.Fatal(err)
	}
	if _, b := convtree.ActivePath(got.Entries, got.Meta.MessageLinks); b != wantBranches || b < 2 {
		t.Errorf("%d branches written, the pi session has %d", b, wantBranches)
	}
	if !strings.HasSuffix(filepath.Dir(written[0]), filepath.Join("projects", EncodeCwd(in.Meta.Cwd))) || !spell.IsUUID(strings.TrimSuffix(filepath.Base(written[0]), ".jsonl")) {
		t.Errorf("written to %s", written[0])
	}
}

// The project folder names are those Claude Code's own function (in its
// Agent SDK and CLI) gives, computed by it for these paths.
func TestEncodeCwd(t *testing.T) {
	long := "/work/" + strings.Repeat("deep-folder/", 26) // 318 characters
	cases := []struct{ in, want string }{
		{"/home/dev/my_app.v2", "-home-dev-my-app-v2"},
		{"C:\\Users\\x", "C--Users-x"},
		{"/home/josé/app", "-home-jos--app"}, // one UTF-16 unit, one '-'
		{"/tmp/😀/x", "-tmp----x"},            // two units
		{"/w/" + strings.Repeat("x", 197), "-w-" + strings.Repeat("x", 197)},
		{"/w/" + strings.Repeat("x", 198), "-w-" + strings.Repeat("x", 197) + "-qvwt6v"},
		{long, strings.Repeat("-work-deep-folder-deep-folder", 1) + strings.Repeat("-deep-folder", 14) + "-de-v9qlw1"},
	}
	for _, c := range cases {
		if got := EncodeCwd(c.in); got != c.want {
			t.Errorf("EncodeCwd(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A store, its projects/ folder, a project folder and a session file each
// name the one session; a sub-agent file is refused as a session.
func TestSessionsOfEachShape(t *testing.T) {
	proj := filepath.Join(store, "projects", "-home-dev-app")
	file := filepath.Join(proj, "1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f9.jsonl")
	for _, p := range []string{store, filepath.Join(store, "projects"), proj, file} {
		refs, err := (Format{}).Sessions(p)
		if err != nil || len(refs) != 1 || refs[0].Path != file {
			t.Errorf("Sessions(%s) = %v, %v; want %s", p, refs, err, file)
		}
		if !(Format{}).Detect(p) {
			t.Errorf("%s not detected", p)
		}
	}
	sub := filepath.Join(proj, "1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f9", "subagents", "agent-a1b2c3d.jsonl")
	if _, err := (Format{}).Sessions(sub); err == nil {
		t.Errorf("a sub-agent file is listed as a session")
	}
}

// A session id that is not a UUID is written under a UUID derived from
// it, the same every time; a UUID is kept.
func TestSessionID(t *testing.T) {
	id := func(s string) string { return SessionID(&session.Meta{ID: s}) }
	u := "1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"
	if id(u) != u {
		t.Errorf("SessionID(%s) = %s", u, id(u))
	}
	a, b := id("ses_e03a7a64affe0wHc2prdw2R2s7"), id("ses_e03a7a64affe0wHc2prdw2R2s7")
	if a != b || !spell.IsUUID(a) || a == id("ses_other") {
		t.Errorf("derived ids %s, %s", a, b)
	}
}

// A file-history-snapshot line (no uuid) written between the lines of one
// API message does not make the rest of the message a branch of its own:
// the message continues the conversation's line (258c7280's shape).
func TestSnapshotIsNoBranch(t *testing.T) {
	r, err := (Format{}).Open(format.Ref{Path: "testdata/snapshot/9a1b2c3d-0000-4000-8000-00000000aaaa.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, branches := convtree.ActivePath(s.Entries, s.Meta.MessageLinks); branches != 1 {
		for _, e := range s.Entries {
			t.Logf("%s <- %s (%s)", e.ID, e.ParentID, e.Type)
		}
		t.Errorf("%d branches, want 1", branches)
	}
}
