package convert

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// adaptAll adapts entries of layout "src" for to and returns what Adapt
// gives and the losses it counted, as the report prints them.
func adaptAll(t *testing.T, to format.Caps, entries ...*session.Entry) ([]*session.Entry, []string) {
	t.Helper()
	lost := &loss.Counter{}
	r, err := Adapt(&session.SliceReader{S: &session.Session{Meta: session.Meta{ID: "s", Source: session.Source{Origin: "src"}}, Entries: entries}}, nil, to, "tgt", lost)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range lost.Items() {
		got = append(got, it.String())
	}
	return s.Entries, got
}

func stopped(reason string) *session.Entry {
	e := msg("a", "", session.RoleAssistant)
	e.Message.StopReason = reason
	return e
}

// A declared Stops rule writes a stop reason no layout documents as
// "stop", counted as the target declares; a known one passes as it is.
func TestAdaptStops(t *testing.T) {
	rule := &format.Rule{Action: loss.Flattened, Why: "tgt knows five"}
	for _, c := range []struct {
		name  string
		stops *format.Rule
		in    *session.Entry
		want  string
		lost  []string
	}{
		{"unknown", rule, stopped("refusal"), spell.StopEnd, []string{"1 stop-reason flattened (tgt knows five)"}},
		{"known spelling", rule, stopped("end_turn"), "end_turn", nil},
		{"user message", rule, func() *session.Entry { e := stopped("refusal"); e.Message.Role = session.RoleUser; return e }(), "refusal", nil},
		{"undeclared", nil, stopped("refusal"), "refusal", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := format.Caps{Roles: []session.Role{session.RoleUser, session.RoleAssistant}, Blocks: []session.BlockType{session.BlockText}, StopReason: true, Stops: c.stops}
			out, lost := adaptAll(t, to, c.in)
			if len(out) != 1 || out[0].Message.StopReason != c.want {
				t.Errorf("stop reason: got %v, want %q", out, c.want)
			}
			if diff := cmp.Diff(c.lost, lost); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}

// An entry of a kind the target converts is counted as converted with the
// reason the target declares for the kind, and kept for its writer.
func TestAdaptConvertedKinds(t *testing.T) {
	to := format.Caps{Roles: []session.Role{session.RoleUser}, Blocks: []session.BlockType{session.BlockText},
		Kinds:          []session.Kind{session.KindLabel},
		KindsConverted: []session.Kind{session.KindOther, session.KindSubagent},
		ConvertedWhy:   map[session.Kind]string{session.KindOther: "tgt keeps it as a custom entry"}}
	other := kind("o", "", session.KindOther)
	other.Type = "weird"
	for _, c := range []struct {
		name string
		in   *session.Entry
		lost []string
	}{
		{"converted with a reason", other, []string{"1 weird-entry converted (tgt keeps it as a custom entry)"}},
		{"converted without a reason", kind("s", "", session.KindSubagent), nil},
		{"held", kind("l", "", session.KindLabel), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, lost := adaptAll(t, to, c.in)
			if len(out) != 1 {
				t.Errorf("the entry was not kept: %v", out)
			}
			if diff := cmp.Diff(c.lost, lost); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}

// png is a 1x1 PNG image, base64.
const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

// The declared image rules: a block without inline data dropped, a missing
// MIME type read from the data (a block that is no image dropped), a file
// name dropped; each counted as declared, and none without a declaration.
func TestAdaptImages(t *testing.T) {
	inline := &format.Rule{Action: loss.Dropped, Why: "inline only"}
	mime := &format.Rule{Action: loss.Dropped, Why: "no image"}
	name := &format.Rule{Action: loss.Dropped, Why: "no name"}
	all := func(c *format.Caps) { c.ImagesInline, c.ImageMIME, c.ImageFileName = inline, mime, name }
	for _, c := range []struct {
		name  string
		rules func(*format.Caps)
		block session.Block
		want  []session.Block
		lost  []string
	}{
		{"url only", all, session.Block{Type: session.BlockFile, URL: "https://x/a.png", MimeType: "image/png"}, nil,
			[]string{"1 file-without-data dropped (inline only)"}},
		{"mime sniffed", all, session.Block{Type: session.BlockImage, Data: png},
			[]session.Block{{Type: session.BlockImage, Data: png, MimeType: "image/png"}}, nil},
		{"not an image", all, session.Block{Type: session.BlockFile, Data: "aGVsbG8gd29ybGQ="}, nil,
			[]string{"1 file-block dropped (no image)"}},
		{"file name", all, session.Block{Type: session.BlockImage, Data: png, MimeType: "image/png", Filename: "a.png"},
			[]session.Block{{Type: session.BlockImage, Data: png, MimeType: "image/png"}}, []string{"1 file-name dropped (no name)"}},
		{"a file that is no image", func(c *format.Caps) {
			all(c)
			c.FilesImagesOnly = &format.Rule{Action: loss.Dropped, Why: "images only"}
		},
			session.Block{Type: session.BlockFile, MimeType: "application/pdf"}, nil, []string{"1 file-block dropped (images only)"}},
		{"an image file", func(c *format.Caps) { c.FilesImagesOnly = &format.Rule{Action: loss.Dropped, Why: "images only"} },
			session.Block{Type: session.BlockFile, MimeType: "image/png", Data: png},
			[]session.Block{{Type: session.BlockFile, MimeType: "image/png", Data: png}}, nil},
		{"linked: url kept", func(c *format.Caps) { all(c); c.ImagesLinked = true },
			session.Block{Type: session.BlockImage, URL: "https://x/a.png", MimeType: "image/png"},
			[]session.Block{{Type: session.BlockImage, URL: "https://x/a.png", MimeType: "image/png"}}, nil},
		{"linked: neither data nor url", func(c *format.Caps) { all(c); c.ImagesLinked = true },
			session.Block{Type: session.BlockImage, MimeType: "image/png"}, nil, []string{"1 image-without-data dropped (inline only)"}},
		{"undeclared", func(*format.Caps) {}, session.Block{Type: session.BlockImage, Filename: "a.png"},
			[]session.Block{{Type: session.BlockImage, Filename: "a.png"}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := format.Caps{Roles: []session.Role{session.RoleUser},
				Blocks: []session.BlockType{session.BlockImage}, BlocksConverted: []session.BlockType{session.BlockFile}}
			c.rules(&to)
			e := msg("u", "", session.RoleUser)
			e.Message.Content = []session.Block{c.block}
			out, lost := adaptAll(t, to, e)
			if diff := cmp.Diff(c.want, out[0].Message.Content, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.lost, lost); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}

// A declared ToolCallsOnlyOn drops the tool calls of a message whose role
// may carry none, counted; the rest of the message stays.
func TestAdaptToolCallsOnlyOn(t *testing.T) {
	rule := &format.Rule{Action: loss.Dropped, Why: "calls in assistant messages only"}
	for _, c := range []struct {
		name string
		rule *format.Rule
		role session.Role
		want int // blocks left
		lost []string
	}{
		{"user message", rule, session.RoleUser, 1, []string{"2 tool-call dropped (calls in assistant messages only)"}},
		{"assistant message", rule, session.RoleAssistant, 3, nil},
		{"undeclared", nil, session.RoleUser, 3, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := format.Caps{Roles: []session.Role{session.RoleUser, session.RoleAssistant}, ToolCallOn: []session.Role{session.RoleAssistant},
				Blocks: []session.BlockType{session.BlockText, session.BlockToolCall}, ToolCallsOnlyOn: c.rule}
			out, lost := adaptAll(t, to, with(msg("m", "", c.role), session.BlockToolCall, session.BlockToolCall))
			if got := len(out[0].Message.Content); got != c.want {
				t.Errorf("got %d blocks, want %d", got, c.want)
			}
			if diff := cmp.Diff(c.lost, lost); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}

// A declared ParentNeedsPath drops a parent link without the parent's file
// path or fork entry, counted; a whole one is kept.
func TestAdaptParentNeedsPath(t *testing.T) {
	rule := &format.Rule{Action: loss.Dropped, Why: "needs path and entry"}
	for _, c := range []struct {
		name   string
		rule   *format.Rule
		parent *session.Parent
		kept   bool
		lost   []string
	}{
		{"no path", rule, &session.Parent{SessionID: "p", EntryID: "e"}, false, []string{"1 parent-link dropped (needs path and entry)"}},
		{"no entry", rule, &session.Parent{Path: "/p.jsonl"}, false, []string{"1 parent-link dropped (needs path and entry)"}},
		{"whole", rule, &session.Parent{Path: "/p.jsonl", EntryID: "e"}, true, nil},
		{"undeclared", nil, &session.Parent{SessionID: "p"}, true, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := format.Caps{Roles: []session.Role{session.RoleUser}, Blocks: []session.BlockType{session.BlockText}, ParentNeedsPath: c.rule}
			lost := &loss.Counter{}
			in := &session.Session{Meta: session.Meta{ID: "s", Parent: c.parent, Source: session.Source{Origin: "src"}}}
			r, err := Adapt(&session.SliceReader{S: in}, nil, to, "tgt", lost)
			if err != nil {
				t.Fatal(err)
			}
			if kept := r.Meta().Parent != nil; kept != c.kept {
				t.Errorf("parent kept: %v, want %v", kept, c.kept)
			}
			var got []string
			for _, it := range lost.Items() {
				got = append(got, it.String())
			}
			if diff := cmp.Diff(c.lost, got); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}

// A declared BlocksOn keeps on a message of a role it names only the block
// types it lists, the others dropped and counted with the role's reason
// after the entry's data was counted (a dropped block's own fields are lost
// too); a role it does not name keeps every block.
func TestAdaptBlocksOn(t *testing.T) {
	on := map[session.Role]format.RoleBlocks{
		session.RoleAssistant: {Types: []session.BlockType{session.BlockText}, Why: "replies hold text"},
		session.RoleUser:      {Types: []session.BlockType{session.BlockText, session.BlockToolCall}, Why: "user messages hold text and calls"},
	}
	for _, c := range []struct {
		name string
		on   map[session.Role]format.RoleBlocks
		role session.Role
		want []session.BlockType
		lost []string
	}{
		{"assistant", on, session.RoleAssistant, []session.BlockType{session.BlockText},
			[]string{"1 block-field dropped (tgt has no slot for another layout's block fields)", "2 tool_call-block dropped (replies hold text)"}},
		{"user", on, session.RoleUser, []session.BlockType{session.BlockText, session.BlockToolCall, session.BlockToolCall}, nil},
		{"a role not named", on, session.RoleSystem, []session.BlockType{session.BlockText, session.BlockToolCall, session.BlockToolCall}, nil},
		{"undeclared", nil, session.RoleAssistant, []session.BlockType{session.BlockText, session.BlockToolCall, session.BlockToolCall}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := format.Caps{Roles: []session.Role{session.RoleUser, session.RoleAssistant, session.RoleSystem},
				Blocks: []session.BlockType{session.BlockText, session.BlockToolCall}, BlocksOn: c.on}
			e := with(msg("m", "", c.role), session.BlockToolCall, session.BlockToolCall)
			e.Message.Content[1].Extra = []session.Field{{Key: "x", Value: []byte("1")}}
			out, lost := adaptAll(t, to, e)
			var got []session.BlockType
			for _, b := range out[0].Message.Content {
				got = append(got, b.Type)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
			if c.lost == nil && c.role != "" {
				c.lost = []string{"1 block-field dropped (tgt has no slot for another layout's block fields)"}
			}
			if diff := cmp.Diff(c.lost, lost); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}

// Declared ParentPathDropped and ParentNeedsID drop the parent's file path
// from the link and a link naming no parent session, each counted.
func TestAdaptParentID(t *testing.T) {
	path := &format.Rule{Action: loss.Dropped, Why: "by id only"}
	id := &format.Rule{Action: loss.Dropped, Why: "needs the id"}
	for _, c := range []struct {
		name     string
		path, id *format.Rule
		parent   *session.Parent
		want     *session.Parent
		lost     []string
	}{
		{"path dropped", path, id, &session.Parent{SessionID: "p", Path: "/p.jsonl"}, &session.Parent{SessionID: "p"},
			[]string{"1 parent-path dropped (by id only)"}},
		{"no id", path, id, &session.Parent{Path: "/p.jsonl", EntryID: "e"}, nil,
			[]string{"1 parent-link dropped (needs the id)", "1 parent-path dropped (by id only)"}},
		{"whole", path, id, &session.Parent{SessionID: "p", EntryID: "e"}, &session.Parent{SessionID: "p", EntryID: "e"}, nil},
		{"undeclared", nil, nil, &session.Parent{Path: "/p.jsonl"}, &session.Parent{Path: "/p.jsonl"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := format.Caps{Roles: []session.Role{session.RoleUser}, Blocks: []session.BlockType{session.BlockText}, ParentPathDropped: c.path, ParentNeedsID: c.id}
			lost := &loss.Counter{}
			in := &session.Session{Meta: session.Meta{ID: "s", Parent: c.parent, Source: session.Source{Origin: "src"}}}
			r, err := Adapt(&session.SliceReader{S: in}, nil, to, "tgt", lost)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, r.Meta().Parent); diff != "" {
				t.Errorf("parent (-want +got):\n%s", diff)
			}
			var got []string
			for _, it := range lost.Items() {
				got = append(got, it.String())
			}
			if diff := cmp.Diff(c.lost, got); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}

// A declared LastText keeps only the last text block of an assistant
// message, the others counted dropped; other roles and blocks stay.
func TestAdaptLastText(t *testing.T) {
	texts := func(role session.Role, ts ...string) *session.Entry {
		e := msg("m", "", role)
		e.Message.Content = nil
		for _, x := range ts {
			if x == "call" {
				e.Message.Content = append(e.Message.Content, session.Block{Type: session.BlockToolCall, ToolCallID: "c"})
				continue
			}
			e.Message.Content = append(e.Message.Content, session.Block{Type: session.BlockText, Text: x})
		}
		return e
	}
	for _, c := range []struct {
		name string
		last bool
		in   *session.Entry
		want []string // the texts left, "call" for a tool call
		lost []string
	}{
		{"three texts and a call", true, texts(session.RoleAssistant, "a", "call", "b", "c"), []string{"call", "c"},
			[]string{"2 text-block dropped (tgt keeps only an assistant turn's last text block)"}},
		{"one text", true, texts(session.RoleAssistant, "a", "call"), []string{"a", "call"}, nil},
		{"a user message", true, texts(session.RoleUser, "a", "b"), []string{"a", "b"}, nil},
		{"undeclared", false, texts(session.RoleAssistant, "a", "b"), []string{"a", "b"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := format.Caps{Roles: []session.Role{session.RoleUser, session.RoleAssistant},
				Blocks: []session.BlockType{session.BlockText, session.BlockToolCall}, LastText: c.last}
			out, lost := adaptAll(t, to, c.in)
			var got []string
			for _, b := range out[0].Message.Content {
				if b.Type == session.BlockToolCall {
					got = append(got, "call")
				} else {
					got = append(got, b.Text)
				}
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.lost, lost); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}

// A declared ResultsOnlyOn drops the tool_result blocks of a message whose
// role ResultBlocksOn does not name, counted; the rest of it stays.
func TestAdaptResultsOnlyOn(t *testing.T) {
	rule := &format.Rule{Action: loss.Dropped, Why: "no such content part"}
	for _, c := range []struct {
		name string
		rule *format.Rule
		role session.Role
		want int // blocks left
		lost []string
	}{
		{"assistant message", rule, session.RoleAssistant, 1, []string{"2 tool_result-block dropped (no such content part)"}},
		{"user message", rule, session.RoleUser, 3, nil},
		{"undeclared", nil, session.RoleAssistant, 3, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := format.Caps{Roles: []session.Role{session.RoleUser, session.RoleAssistant},
				Blocks: []session.BlockType{session.BlockText}, BlocksConverted: []session.BlockType{session.BlockToolResult},
				ResultsOnlyOn: c.rule, ResultBlocksOn: []session.Role{session.RoleUser}}
			out, lost := adaptAll(t, to, with(msg("m", "", c.role), session.BlockToolResult, session.BlockToolResult))
			if got := len(out[0].Message.Content); got != c.want {
				t.Errorf("got %d blocks, want %d", got, c.want)
			}
			if diff := cmp.Diff(c.lost, lost); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}

// A declared ForkPointKept counts a fork's link to its fork entry lost
// when that entry is given as no message and its id is not in the
// target's form, once, after the last entry.
func TestAdaptForkPointKept(t *testing.T) {
	rule := &format.Rule{Action: loss.Dropped, Why: "the fork point is a message"}
	const uuid = "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed"
	for _, c := range []struct {
		name  string
		rule  *format.Rule
		entry string // the fork entry's id
		lost  []string
	}{
		{"a message kept", rule, "m1", nil},
		{"a title entry", rule, "t1", []string{"1 parent-link dropped (the fork point is a message)"}},
		{"a message of a role dropped", rule, "x1", []string{"1 parent-link dropped (the fork point is a message)"}},
		{"no such entry", rule, "gone", []string{"1 parent-link dropped (the fork point is a message)"}},
		{"an id of the target's form", rule, uuid, nil},
		{"undeclared", nil, "t1", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := format.Caps{Linear: true, Roles: []session.Role{session.RoleUser}, Fallback: format.FallbackDrop,
				Blocks: []session.BlockType{session.BlockText}, Kinds: []session.Kind{session.KindSessionInfo},
				IDs: format.IDStyle{Form: format.IDUUID}, ForkPointKept: c.rule}
			lost := &loss.Counter{}
			in := &session.Session{Meta: session.Meta{ID: "s", Parent: &session.Parent{SessionID: "p", EntryID: c.entry}, Source: session.Source{Origin: "src"}},
				Entries: []*session.Entry{msg("m1", "", session.RoleUser), kind("t1", "m1", session.KindSessionInfo), msg("x1", "t1", session.RoleSystem), msg("m2", "x1", session.RoleUser)}}
			r, err := Adapt(&session.SliceReader{S: in}, nil, to, "tgt", lost)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := session.ReadAll(r); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range lost.Items() {
				if it.Kind == loss.ParentLink {
					got = append(got, it.String())
				}
			}
			if diff := cmp.Diff(c.lost, got); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}

// A declared SnapshotsNeedContent counts the content of each existing
// snapshot file without a blob or a SHA-256 dropped, and leaves such a
// file no blob for the writer to copy; the source's meta is not touched.
func TestAdaptSnapshotsNeedContent(t *testing.T) {
	rule := &format.Rule{Action: loss.Dropped, Why: "no content"}
	sum := strings.Repeat("ab", 32)
	files := func() []session.FileState {
		return []session.FileState{
			{Path: "kept", Exists: true, Hash: sum, Blob: "/b/" + sum},
			{Path: "no blob", Exists: true, Hash: sum},
			{Path: "no hash", Exists: true, Hash: "md5:x", Blob: "/b/x"},
			{Path: "deleted", Exists: false},
		}
	}
	for _, c := range []struct {
		name  string
		rule  *format.Rule
		blobs []string // the files left a blob
		lost  []string
	}{
		{"declared", rule, []string{"kept"}, []string{"2 checkpoint-blob dropped (no content)"}},
		{"undeclared", nil, []string{"kept", "no hash"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := format.Caps{Checkpoints: true, Roles: []session.Role{session.RoleUser}, Blocks: []session.BlockType{session.BlockText}, SnapshotsNeedContent: c.rule}
			lost := &loss.Counter{}
			in := &session.Session{Meta: session.Meta{ID: "s", Source: session.Source{Origin: "src"}, Checkpoints: []session.Checkpoint{{ID: "c", Files: files()}}}}
			r, err := Adapt(&session.SliceReader{S: in}, nil, to, "tgt", lost)
			if err != nil {
				t.Fatal(err)
			}
			var blobs []string
			for _, f := range r.Meta().Checkpoints[0].Files {
				if f.Blob != "" {
					blobs = append(blobs, f.Path)
				}
			}
			if diff := cmp.Diff(c.blobs, blobs); diff != "" {
				t.Errorf("files with a blob (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(files(), in.Meta.Checkpoints[0].Files); diff != "" {
				t.Errorf("the source's snapshot changed (-want +got):\n%s", diff)
			}
			var got []string
			for _, it := range lost.Items() {
				got = append(got, it.String())
			}
			if diff := cmp.Diff(c.lost, got); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}
