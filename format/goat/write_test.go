package goat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// foreign is a session as another layout's reader would give it: a branch,
// thinking, several text blocks, usage, an error flag, a compaction and a label.
func foreign() *session.Session {
	t0 := time.Date(2026, 2, 9, 10, 15, 26, 123000000, time.UTC)
	at := func(s int) session.Time {
		return session.Time{T: t0.Add(time.Duration(s) * time.Second), Raw: fmt.Sprint(s)}
	}
	txt := func(s string) session.Block { return session.Block{Type: session.BlockText, Text: s} }
	msg := func(id, parent string, s int, m *session.Message) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, Type: "message", ID: id, ParentID: parent, Time: at(s), Message: m, Source: session.Source{Origin: "tree"}}
	}
	cost := &session.Cost{Total: 0.25}
	return &session.Session{
		Meta: session.Meta{ID: "0f1e2d3c-4b5a-4968-8776-655443322110", Cwd: "/work/p", Provider: "anthropic", Version: "3", Source: session.Source{Origin: "tree"},
			Extra: session.Extras{{Key: "x", Value: jsonRaw(`1`)}}},
		Entries: []*session.Entry{
			msg("a1", "", 0, &session.Message{Role: session.RoleUser, ContentIsString: true, Content: []session.Block{txt("fix <main.go> & go")}}),
			msg("a2", "a1", 1, &session.Message{Role: session.RoleAssistant, Model: "claude-x", Usage: &session.Usage{Input: 5, Cost: cost}, StopReason: "toolUse",
				Content: []session.Block{{Type: session.BlockThinking, Text: "plan"}, txt("one"), txt("two"),
					{Type: session.BlockToolCall, ToolCallID: "call1", ToolName: "Read", Arguments: jsonRaw(`{ "path": "main.go" }`)}}}),
			msg("a3", "a2", 2, &session.Message{Role: session.RoleTool, ToolCallID: "call1", ToolName: "Read", IsError: true, Content: []session.Block{txt("boom")}}),
			msg("r1", "a3", 3, &session.Message{Role: session.RoleUser, Content: []session.Block{
				{Type: session.BlockToolResult, ToolCallID: "call1", Text: "again", IsError: true}}}),
			msg("b1", "r1", 3, &session.Message{Role: session.RoleUser, ContentIsString: true, Content: []session.Block{txt("abandoned")}}),
			{Kind: session.KindCompaction, ID: "c1", ParentID: "r1", Compaction: &session.Compaction{Summary: "s"}, Source: session.Source{Origin: "tree"}},
			{Kind: session.KindLabel, ID: "l1", ParentID: "c1", Label: &session.Label{TargetID: "a1", Label: "x"}, Source: session.Source{Origin: "tree"}},
			msg("4a4a4a4a-0000-4000-8000-000000000004", "l1", 5, &session.Message{Role: session.RoleUser, Content: []session.Block{txt("see"),
				{Type: session.BlockImage, MimeType: "image/png", Data: "iVBORw0KGgo="}}}),
			msg("a5", "4a4a4a4a-0000-4000-8000-000000000004", 6, &session.Message{Role: session.RoleAssistant, Content: []session.Block{
				{Type: session.BlockToolCall, ToolCallID: "call2", ToolName: "Bash", Arguments: jsonRaw(`{"command":"ls"}`)}}}),
		},
	}
}

func TestWriteForeign(t *testing.T) {
	out := t.TempDir()
	lost := &loss.Counter{}
	written, err := convert.Write(Format{}, &session.SliceReader{S: foreign()}, out, format.WriteOptions{}, lost)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(out, "0f1e2d3c-4b5a-4968-8776-655443322110")
	if len(written) != 3 || written[0] != dir {
		t.Errorf("written %v, want the session directory, messages.jsonl and metadata.json", written)
	}
	var got bytes.Buffer
	for _, n := range []string{MessagesFile, MetadataFile} {
		fmt.Fprintf(&got, "== %s\n%s\n", n, mustRead(t, filepath.Join(dir, n)))
	}
	got.WriteString("== loss\n")
	for _, it := range lost.Items() {
		fmt.Fprintln(&got, it.String())
	}
	golden.Assert(t, "write/foreign.txt", got.Bytes())

	// What goat reads back must validate clean (message_count, tool links, ...).
	rep := &report.Report{}
	if err := (Format{}).Validate(dir, rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := rep.Errors() + rep.Warnings(); n != 0 {
		t.Errorf("written session has %d findings: %v", n, rep.Findings())
	}

	// Deterministic: a second write gives the same bytes.
	out2 := t.TempDir()
	if _, err := convert.Write(Format{}, &session.SliceReader{S: foreign()}, out2, format.WriteOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{MessagesFile, MetadataFile} {
		if a, b := mustRead(t, filepath.Join(dir, n)), mustRead(t, filepath.Join(out2, filepath.Base(dir), n)); !bytes.Equal(a, b) {
			t.Errorf("%s differs between two writes", n)
		}
	}
}

func TestWriteRefuses(t *testing.T) {
	out := t.TempDir()
	s := foreign()
	if _, err := convert.Write(Format{}, &session.SliceReader{S: s}, out, format.WriteOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	_, err := convert.Write(Format{}, &session.SliceReader{S: foreign()}, out, format.WriteOptions{}, nil)
	if !errors.Is(err, atomicfile.ErrExists) {
		t.Errorf("second write without Force: err = %v, want ErrExists", err)
	}
	if _, err := convert.Write(Format{}, &session.SliceReader{S: foreign()}, out, format.WriteOptions{Force: true}, nil); err != nil {
		t.Errorf("write with Force: %v", err)
	}
	for _, bad := range []string{"../escape", "a/b", "..", "", "."} {
		// Another layout's id becomes a derived UUID: it never names a path.
		s := foreign()
		s.Meta.ID = bad
		sub := filepath.Join(t.TempDir(), "out")
		if paths, err := convert.Write(Format{}, &session.SliceReader{S: s}, sub, format.WriteOptions{}, nil); err != nil || len(paths) == 0 || filepath.Dir(paths[0]) != sub {
			t.Errorf("foreign id %q: wrote %v, %v; want a UUID directory in %s", bad, paths, err, sub)
		}
		// A goat session's own id is used as it is, so a bad one is refused.
		s = foreign()
		s.Meta.ID, s.Meta.Origin = bad, Name
		sub = filepath.Join(t.TempDir(), "out")
		if _, err := convert.Write(Format{}, &session.SliceReader{S: s}, sub, format.WriteOptions{}, nil); err == nil || !strings.Contains(err.Error(), "directory name") {
			t.Errorf("id %q: err = %v, want a refusal", bad, err)
		}
		if _, err := os.Stat(filepath.Dir(sub)); err == nil {
			if ents, _ := os.ReadDir(filepath.Dir(sub)); len(ents) != 0 {
				t.Errorf("id %q: wrote %v", bad, ents)
			}
		}
	}
	s = foreign()
	s.Meta.ID = "cp"
	s.Meta.Checkpoints = []session.Checkpoint{{ID: "../../x"}}
	if _, err := convert.Write(Format{}, &session.SliceReader{S: s}, t.TempDir(), format.WriteOptions{}, nil); err == nil {
		t.Errorf("checkpoint id ../../x accepted")
	}
}

// A checkpoint whose blob does not match its hash is refused, not copied.
func TestWriteBadBlob(t *testing.T) {
	blob := filepath.Join(t.TempDir(), "blob")
	os.WriteFile(blob, []byte("other"), 0o644)
	s := foreign()
	s.Meta.Checkpoints = []session.Checkpoint{{ID: "session-end", Files: []session.FileState{{Path: "/a", Exists: true,
		Hash: "df1d036cbbf3df46e2045071e082245ece204c7f53ecf0a4e022bff9bb228f47", Size: 13, Blob: blob}}}}
	_, err := convert.Write(Format{}, &session.SliceReader{S: s}, t.TempDir(), format.WriteOptions{}, nil)
	if err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("err = %v, want a SHA-256 mismatch", err)
	}
}

// TestWriteForkPoint: a fork from flat names its fork entry by flat's 8-hex
// id, the last message it copied from its parent; goat's fork_point_uuid is
// a message uuid, the one written for that message. When that message is
// not written, the fork point is dropped and counted, never an 8-hex id.
func TestWriteForkPoint(t *testing.T) {
	msg := func(id, parent string, role session.Role) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Time: session.Time{T: time.Date(2026, 11, 21, 4, 24, 24, 0, time.UTC)},
			Message: &session.Message{Role: role, Content: []session.Block{{Type: session.BlockText, Text: id}}}, Source: session.Source{Origin: "flat"}}
	}
	for _, c := range []struct {
		name, entry string
		want        string // the written message's index, or "" for none
		lost        int
	}{
		{"fork entry written", "0bce3d6c", "1", 0},
		{"fork entry not in the session", "99999999", "", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &session.Session{
				Meta: session.Meta{ID: "a1bea1d6-87ff-40ad-b862-897d689cb7a9", Source: session.Source{Origin: "flat"},
					Parent: &session.Parent{Path: "/s/20261121-042424-f487536d.jsonl", EntryID: c.entry}},
				Entries: []*session.Entry{msg("6b158526", "", session.RoleUser), msg("0bce3d6c", "6b158526", session.RoleAssistant), msg("1d2c3b4a", "0bce3d6c", session.RoleUser)},
			}
			out := t.TempDir()
			lost := &loss.Counter{}
			if _, err := convert.Write(Format{}, &session.SliceReader{S: s}, out, format.WriteOptions{}, lost); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(out, s.Meta.ID)
			var meta struct {
				ForkPoint *string `json:"fork_point_uuid"`
			}
			if err := json.Unmarshal(mustRead(t, filepath.Join(dir, MetadataFile)), &meta); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(mustRead(t, filepath.Join(dir, MessagesFile)))), "\n")
			switch {
			case c.want == "" && meta.ForkPoint != nil:
				t.Errorf("fork_point_uuid = %q, want none", *meta.ForkPoint)
			case c.want != "" && meta.ForkPoint == nil:
				t.Error("no fork_point_uuid")
			case c.want != "":
				var line struct{ UUID string }
				i, _ := strconv.Atoi(c.want)
				if err := json.Unmarshal([]byte(lines[i]), &line); err != nil {
					t.Fatal(err)
				}
				if *meta.ForkPoint != line.UUID || !spell.IsUUID(*meta.ForkPoint) {
					t.Errorf("fork_point_uuid = %q, want the uuid of the fork message, %q", *meta.ForkPoint, line.UUID)
				}
			}
			got := 0
			for _, it := range lost.Items() {
				if it.Kind == loss.ParentLink {
					got += it.Count
				}
			}
			if got != c.lost {
				t.Errorf("%d parent-link lost, want %d: %v", got, c.lost, lost.Items())
			}
		})
	}
}

// TestWriteRefusesUnadapted: given directly what the adaptation drops by
// goat's declaration (caps), the writer refuses it,
// naming the entry, rather than skip it.
func TestWriteRefusesUnadapted(t *testing.T) {
	txt := func(s string) session.Block { return session.Block{Type: session.BlockText, Text: s} }
	call := session.Block{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "ls", Arguments: jsonRaw(`{}`)}
	m := func(id string, role session.Role, bs ...session.Block) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, Source: session.Source{Origin: "tree"},
			Message: &session.Message{Role: role, ToolCallID: "c9", Content: bs}}
	}
	for _, tc := range []struct {
		name string
		e    *session.Entry
		want string
	}{
		{"a compaction", &session.Entry{Kind: session.KindCompaction, ID: "k1", Source: session.Source{Origin: "tree"}}, "entry k1 is a compaction entry"},
		{"a title entry without a title", &session.Entry{Kind: session.KindSessionInfo, ID: "t1", Source: session.Source{Origin: "tree"}}, "entry t1 is a session_info entry"},
		{"two texts of an assistant turn", m("a1", session.RoleAssistant, txt("x"), txt("y")), "entry a1: goat keeps one text block"},
		{"a tool call on a user message", m("u1", session.RoleUser, txt("x"), call), "entry u1: goat has tool calls on assistant messages only"},
		{"an image on an assistant message", m("a2", session.RoleAssistant, session.Block{Type: session.BlockImage, Data: "AAAA"}), "entry a2: goat keeps images in user messages only"},
		{"a tool_result block on a tool message", m("r1", session.RoleTool, session.Block{Type: session.BlockToolResult, ToolCallID: "c1"}), "entry r1: goat has no tool_result content part"},
		{"a result without its call", m("r2", session.RoleTool, txt("out")), "entry r2: a result of tool call \"c9\""},
		{"a tool_result block without its call", m("u2", session.RoleUser, session.Block{Type: session.BlockToolResult, ToolCallID: "c7"}), "entry u2: a result of tool call \"c7\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &session.Session{Meta: session.Meta{ID: "s", Source: session.Source{Origin: "tree"}}, Entries: []*session.Entry{m("u0", session.RoleUser, txt("hi")), tc.e}}
			_, err := Format{}.Write(&session.SliceReader{S: s}, t.TempDir(), format.WriteOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one naming %q", err, tc.want)
			}
		})
	}
}
