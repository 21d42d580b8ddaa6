package opencode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/internal/testkit/peers"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// A store written by us is read by OpenCode 1.1.34 itself: its export of each
// session equals our own export of what we wrote.
func TestOpenCodeReadsOurStore(t *testing.T) {
	bin := peers.OpenCode(t)
	home := t.TempDir()
	store := filepath.Join(home, "data", "opencode", "storage")
	var sessions []*session.Session
	refs, err := Format{}.Sessions(treeSample)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range refs {
		sessions = append(sessions, readAll(t, ref))
	}
	// The 1.18.34 native session, from the model alone, and a session from
	// another layout with none of OpenCode's ids.
	native := load(t, Export{}, "testdata/samples/export/v1.18.34-native__ses_e03a3cf39ffedXPkqKi2Jnebgn.json", "")
	stripRaw(native)
	legacy := load(t, Format{}, "testdata/samples/legacy-v0.5.29", "ses_e03a1a3d1ffevytanlsDRtnqmV")
	sessions = append(sessions, native, foreignSession(), legacy)
	for _, s := range sessions {
		paths, err := convert.Write(Format{}, &session.SliceReader{S: s}, store, format.WriteOptions{Options: format.OptionValues{OptProject: "global"}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) == 0 {
			t.Fatal("nothing written")
		}
	}
	all, _ := Format{}.Sessions(store)
	if len(all) != len(sessions) {
		t.Fatalf("%d sessions in our store, want %d", len(all), len(sessions))
	}
	compared := 0
	for _, ref := range all {
		r, err := Format{}.Open(ref)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Encode(r, format.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := peers.OpenCodeExport(t, bin, home, ref.ID)
		if !jsonx.Equal(got, want) {
			t.Errorf("%s: OpenCode's export differs from ours:\n%s", ref.ID, firstDiff(string(got), string(want)))
		}
		// For the sample sessions, OpenCode's export of our store is also the
		// export OpenCode 1.1.34 made of the original (but for the project).
		for _, suffix := range []string{".json", ".child.json"} {
			orig, err := os.ReadFile("testdata/samples/export/v1.1.34__" + ref.ID + suffix)
			if err != nil {
				continue
			}
			compared++
			orig = setMember(mustCompact(t, orig), "info", setMember([]byte(gjsonGet(orig, "info")), "projectID", []byte(`"global"`)))
			if !jsonx.Equal(got, orig) {
				t.Errorf("%s: OpenCode's export of our store differs from its export of the original", ref.ID)
			}
		}
		var doc struct{ Messages []json.RawMessage }
		json.Unmarshal(got, &doc)
		if len(doc.Messages) == 0 {
			t.Errorf("%s: OpenCode exported no messages", ref.ID)
		}
	}
	if compared != 3 {
		t.Errorf("compared %d sessions with OpenCode's original exports, want 3", compared)
	}
}

// foreignSession is a session as another layout would read it: no OpenCode
// ids, a tool call with its result, thinking.
func foreignSession() *session.Session {
	ms := int64(1795235500000)
	args := json.RawMessage(`{"command":"ls"}`)
	return &session.Session{
		Meta: session.Meta{ID: "a1b2c3d4", Title: "Foreign", Cwd: "/nonexistent/dir", Created: session.FromMillis(ms), Source: session.Source{Origin: "tree"}, Provider: "anthropic", Model: "claude"},
		Entries: []*session.Entry{
			{Kind: session.KindMessage, ID: "e1", Time: session.FromMillis(ms + 1), Source: session.Source{Origin: "tree"},
				Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "list files"}}}},
			{Kind: session.KindMessage, ID: "e2", ParentID: "e1", Time: session.FromMillis(ms + 2), Source: session.Source{Origin: "tree"},
				Message: &session.Message{Role: session.RoleAssistant, Provider: "anthropic", Model: "claude", StopReason: "toolUse",
					Usage:   &session.Usage{Input: 10, Output: 5, Cost: &session.Cost{Total: 0.01}},
					Content: []session.Block{{Type: session.BlockThinking, Text: "use bash"}, {Type: session.BlockToolCall, ToolCallID: "call_1", ToolName: "bash", Arguments: args}}}},
			{Kind: session.KindMessage, ID: "e3", ParentID: "e2", Time: session.FromMillis(ms + 3), Source: session.Source{Origin: "tree"},
				Message: &session.Message{Role: session.RoleTool, ToolCallID: "call_1", ToolName: "bash", Content: []session.Block{{Type: session.BlockText, Text: "a.txt"}}}},
			{Kind: session.KindMessage, ID: "e4", ParentID: "e3", Time: session.FromMillis(ms + 4), Source: session.Source{Origin: "tree"},
				Message: &session.Message{Role: session.RoleAssistant, Provider: "anthropic", Model: "claude", StopReason: "stop",
					Content: []session.Block{{Type: session.BlockText, Text: "a.txt is there"}}}},
		},
	}
}

func mustCompact(t *testing.T, b []byte) []byte {
	c, err := compact(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func gjsonGet(b []byte, path string) string { return gjson.GetBytes(mustCompactNoT(b), path).Raw }

func mustCompactNoT(b []byte) []byte { c, _ := compact(b); return c }
