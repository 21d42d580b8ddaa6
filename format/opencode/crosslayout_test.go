package opencode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// normJSON re-encodes a JSON value with sorted keys, so member order (which
// differs between the tree files and the database blobs) does not count.
func normJSON(b []byte) string {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return "invalid:" + string(b)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// compareOpts ignores where an entry was read from (Origin, Raw) and the side
// files that are not the same in every layout: the 1.2 import drops todo ids
// and keeps no session_diff, the project row is updated by later runs, and an
// export holds none of them (formats/opencode.md §5.2, §6.1).
var compareOpts = cmp.Options{
	cmpopts.IgnoreFields(session.Meta{}, "Origin", "Raw", "Private"),
	cmpopts.IgnoreFields(session.Entry{}, "Origin", "Raw", "Line"),
	cmp.Transformer("extras", func(x session.Extras) map[string]string {
		m := map[string]string{}
		for _, f := range x {
			m[f.Key] = normJSON(f.Value)
		}
		return m
	}),
	cmp.Transformer("raw", func(r json.RawMessage) string { return normJSON(r) }),
}

func load(t *testing.T, f format.Format, path, id string) *session.Session {
	t.Helper()
	r, err := f.Open(format.Ref{Path: path, ID: id})
	if err != nil {
		t.Fatalf("%s#%s: %v", path, id, err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The same session read from the 1.1.34 tree, the 1.2.1 database made from
// it, and the exports is the same model.
func TestSameModelAcrossLayouts(t *testing.T) {
	ids := []string{"ses_e03a7a64affe0wHc2prdw2R2s7", "ses_e03a737e8ffeFPl5pgZjDAnlwG", "ses_e03a73772ffeu66Dofli58suGI"}
	for _, id := range ids {
		tree := load(t, Format{}, treeSample, id)
		if len(tree.Entries) == 0 {
			t.Fatalf("%s: no entries", id)
		}
		db := load(t, Format{}, "testdata/samples/sqlite/opencode-1.2.1-after-json-migration.db", id)
		if d := cmp.Diff(tree, db, compareOpts); d != "" {
			t.Errorf("%s: tree and 1.2.1 db differ (-tree +db):\n%s", id, d)
		}
		suffix := ".json"
		if strings.HasPrefix(id, "ses_e03a7377") {
			suffix = ".child.json"
		}
		exp := load(t, Export{}, "testdata/samples/export/v1.1.34__"+id+suffix, "")
		if len(exp.Meta.Children) != len(tree.Meta.Children) {
			t.Errorf("%s: children %v in the export, %v in the tree", id, exp.Meta.Children, tree.Meta.Children)
		}
		if d := cmp.Diff(tree, exp, compareOpts); d != "" {
			t.Errorf("%s: tree and export differ (-tree +export):\n%s", id, d)
		}
		// 1.18.34 backfills session cost and tokens; its own export agrees with its db.
		db18 := load(t, Format{}, "testdata/samples/sqlite/opencode-1.18.34.db", id)
		exp18 := load(t, Export{}, "testdata/samples/export/v1.18.34-migrated__"+id+suffix, "")
		if d := cmp.Diff(db18, exp18, compareOpts); d != "" {
			t.Errorf("%s: 1.18.34 db and export differ (-db +export):\n%s", id, d)
		}
	}
	native := "ses_e03a3cf39ffedXPkqKi2Jnebgn"
	db := load(t, Format{}, "testdata/samples/sqlite/opencode-1.18.34.db", native)
	exp := load(t, Export{}, "testdata/samples/export/v1.18.34-native__"+native+".json", "")
	if d := cmp.Diff(db, exp, compareOpts); d != "" {
		t.Errorf("native: 1.18.34 db and export differ (-db +export):\n%s", d)
	}
}

// What the model holds for the main sample session: messages in time order,
// tool calls with their results, usage from step-finish parts, the
// compaction, todos and the child link.
func TestModelMapping(t *testing.T) {
	s := load(t, Format{}, treeSample, "ses_e03a7a64affe0wHc2prdw2R2s7")
	var kinds []string
	for _, e := range s.Entries {
		k := string(e.Kind)
		if e.Message != nil {
			k += ":" + string(e.Message.Role)
		}
		kinds = append(kinds, k)
	}
	want := []string{"message:user", "message:assistant", "message:tool", "message:assistant", "message:tool",
		"message:assistant", "message:tool", "message:assistant", "compaction:assistant"}
	if d := cmp.Diff(want, kinds); d != "" {
		t.Fatalf("entry kinds (-want +got):\n%s", d)
	}
	// The user message whose only part is "compaction" is the compaction's,
	// not a message of the conversation.
	c := s.Entries[len(s.Entries)-1]
	if n := notes[msgNote](&c.Source); n == nil || n.Trigger == nil || n.Trigger.Message.Role != session.RoleUser || !isTrigger(n.Trigger) {
		t.Errorf("the compaction does not hold its trigger: %+v", c.Private)
	}
	for i, e := range s.Entries[1:] {
		if e.ParentID != s.Entries[i].ID {
			t.Errorf("entry %d parent %s, want %s", i+1, e.ParentID, s.Entries[i].ID)
		}
	}
	read := s.Entries[6].Message
	if !read.IsError || read.ToolName != "read" || !strings.Contains(read.Text(), "File not found") {
		t.Errorf("read tool result = %+v", read)
	}
	a := s.Entries[1].Message
	if a.Usage == nil || a.Usage.Input != 1220 || a.Usage.Output != 42 || a.Content[1].Type != session.BlockToolCall {
		t.Errorf("assistant = %+v usage %+v", a, a.Usage)
	}
	if n := notes[metaNote](&s.Meta.Source); n == nil || n.Todo == nil || n.Diff == nil {
		t.Error("todo or session_diff not carried")
	}
	if s.Entries[8].Compaction == nil || s.Entries[8].Compaction.Summary == "" {
		t.Error("compaction summary missing")
	}
	parent := load(t, Format{}, treeSample, "ses_e03a737e8ffeFPl5pgZjDAnlwG")
	if d := cmp.Diff([]string{"ses_e03a73772ffeu66Dofli58suGI"}, parent.Meta.Children); d != "" {
		t.Errorf("children: %s", d)
	}
	child := load(t, Format{}, treeSample, "ses_e03a73772ffeu66Dofli58suGI")
	if child.Meta.Parent == nil || child.Meta.Parent.SessionID != "ses_e03a737e8ffeFPl5pgZjDAnlwG" {
		t.Errorf("child parent = %+v", child.Meta.Parent)
	}
	legacy := load(t, Format{}, "testdata/samples/legacy-v0.5.29", "ses_e03a1a3d1ffevytanlsDRtnqmV")
	if len(legacy.Entries) != 1 || legacy.Entries[0].Message.Text() != "Please create hello.txt\n" {
		t.Errorf("legacy entries = %+v", legacy.Entries)
	}
}

// The 1.2.1 database and the exports, written as a tree, give the session,
// message and part files of the 1.1.34 tree they came from (as JSON values:
// the database spells members in another order).
func TestDatabaseAndExportToTree(t *testing.T) {
	want := treeFiles(t, treeSample)
	sources := map[string][]format.Ref{}
	dbRefs, err := Format{}.Sessions("testdata/samples/sqlite/opencode-1.2.1-after-json-migration.db")
	if err != nil {
		t.Fatal(err)
	}
	sources["db"] = dbRefs
	for _, id := range []string{"ses_e03a7a64affe0wHc2prdw2R2s7.json", "ses_e03a737e8ffeFPl5pgZjDAnlwG.json", "ses_e03a73772ffeu66Dofli58suGI.child.json"} {
		sources["export"] = append(sources["export"], format.Ref{Path: "testdata/samples/export/v1.1.34__" + id})
	}
	for name, refs := range sources {
		out := t.TempDir()
		for _, ref := range refs {
			r, err := Format{}.Open(ref)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := convert.Write(Format{}, r, out, format.WriteOptions{Options: format.OptionValues{OptProject: sampleProject}}, nil); err != nil {
				t.Fatal(err)
			}
		}
		got := treeFiles(t, out)
		n := 0
		for k, w := range want {
			if !strings.HasPrefix(k, "session/") && !strings.HasPrefix(k, "message/") && !strings.HasPrefix(k, "part/") {
				continue
			}
			n++
			if g, ok := got[k]; !ok || !jsonx.Equal(g, w) {
				t.Errorf("%s: %s differs:\n got %s\nwant %s", name, k, g, w)
			}
		}
		if n != 48 {
			t.Errorf("compared %d files, want 48", n)
		}
	}
}
