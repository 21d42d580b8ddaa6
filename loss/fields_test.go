package loss_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/model"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/registry"
)

// fieldKinds are the kinds that count members of the source the model has
// no slot for.
var fieldKinds = map[loss.Kind]bool{loss.SessionField: true, loss.EntryField: true, loss.MessageField: true, loss.BlockField: true}

// TestFieldLossIsTrue converts small sessions to every other writable layout
// and checks the *-field counts: a source without unknown members reports
// none (however its layout spelled what the model holds), and a source with
// them reports each, by the object that held it.
func TestFieldLossIsTrue(t *testing.T) {
	ashHeader := `{"type":"session","version":"2","id":"s1","created_at":"2026-03-02T09:00:00+00:00","provider":"cli"`
	ashLines := func(header, msg, use string) string {
		return header + "}\n" +
			`{"type":"message","id":"m1","role":"user","content":"List the files","created_at":"2026-03-02T09:00:01+00:00"}` + "\n" +
			`{"type":"message","id":"m2","role":"assistant","content":[{"type":"text","text":"Listing."},{"type":"tool_use","id":"t1","name":"ls","input":{}}],"created_at":"2026-03-02T09:00:02+00:00","parent_id":"m1","token_count":null` + msg + "}\n" +
			`{"type":"tool_use","id":"t1","message_id":"m2","name":"ls","input":{}` + use + "}\n" +
			`{"type":"tool_result","tool_use_id":"t1","output":"a.txt","success":true}` + "\n" +
			`{"type":"message","id":"m3","role":"assistant","content":"One file.","created_at":"2026-03-02T09:00:03+00:00","parent_id":"m2","token_count":12}` + "\n"
	}
	history := `{"id":"m1","role":"user","content":"List the files","created_at":"2026-03-02T09:00:01+00:00","user_id":"u1","username":"ana"}` + "\n"
	treeHeader := `{"type":"session","version":3,"id":"0b8f3c2e-9d1a-4c7e-8f00-5a6b7c8d9e0f","timestamp":"2026-03-02T09:00:00.000Z","cwd":"/src"`
	treeLines := func(header, entry string) string {
		return `{"type":"title","v":1,"title":"Refactor","source":"auto","updatedAt":"2026-03-02T09:00:00.000Z","pad":"        "}` + "\n" +
			header + "}\n" +
			`{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-03-02T09:00:01.000Z"` + entry + `,"message":{"role":"user","content":"hi","timestamp":1772442001000}}` + "\n"
	}
	cases := []struct {
		name   string
		layout string
		files  map[string]string // relative to the session directory, or "" for a file
		want   map[loss.Kind]int // for every target but the model dump
		// kept is the part of want a layout's note keeps beside Extras:
		// all the model dump, which holds Extras, loses.
		kept map[loss.Kind]int
	}{
		{"ash without unknown members", "ash", map[string]string{"s/context.jsonl": ashLines(ashHeader, "", "")}, nil, nil},
		{"ash with a history line, without unknown members", "ash",
			map[string]string{"s/context.jsonl": ashLines(ashHeader, "", ""), "s/history.jsonl": history}, nil, nil},
		{"ash with unknown members", "ash",
			map[string]string{"s/context.jsonl": ashLines(ashHeader+`,"mood":"calm"`, `,"priority":3`, `,"cost_hint":1`)},
			map[loss.Kind]int{loss.SessionField: 1, loss.EntryField: 1, loss.BlockField: 1}, map[loss.Kind]int{loss.BlockField: 1}},
		{"ash with an unknown member of a history line", "ash",
			map[string]string{"s/context.jsonl": ashLines(ashHeader, "", ""), "s/history.jsonl": `{"id":"m1","role":"user","content":"List the files","created_at":"2026-03-02T09:00:01+00:00","display_name":"Ana"}` + "\n"},
			map[loss.Kind]int{loss.EntryField: 1}, map[loss.Kind]int{loss.EntryField: 1}},
		{"tree with a title slot, without unknown members", "tree", map[string]string{"s.jsonl": treeLines(treeHeader, "")}, nil, nil},
		{"tree spelling slots its own way, without unknown members", "tree",
			map[string]string{"s.jsonl": treeLines(`{"type":"session","version":3,"id":"0b8f3c2e-9d1a-4c7e-8f00-5a6b7c8d9e0f","timestamp":"2026-03-02T09:00:00.000Z","cwd":"","branchedFrom":"/s/p.jsonl"`, "")}, nil, nil},
		{"tree with unknown members", "tree",
			map[string]string{"s.jsonl": treeLines(treeHeader+`,"sandbox":"strict"`, `,"pinned":true`)},
			map[loss.Kind]int{loss.SessionField: 1, loss.EntryField: 1}, nil},
	}
	for _, c := range cases {
		dir := t.TempDir()
		for name, body := range c.files {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		src, err := registry.Lookup(c.layout)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "s")
		if _, ok := c.files["s.jsonl"]; ok {
			path += ".jsonl"
		}
		written := 0
		for _, target := range registry.All {
			if _, ok := target.(format.Writer); !ok || target.Name() == c.layout {
				continue
			}
			written++
			t.Run(c.name+" -> "+target.Name(), func(t *testing.T) {
				r, err := src.Open(format.Ref{Path: path})
				if err != nil {
					t.Fatal(err)
				}
				counted := &loss.Counter{}
				out := t.TempDir()
				if _, file := target.(format.Stream); file {
					out = filepath.Join(out, "out")
				}
				if _, err := convert.Write(target, r, out, format.WriteOptions{}, counted); err != nil {
					t.Fatal(err)
				}
				got := map[loss.Kind]int{}
				for _, it := range counted.Items() {
					if fieldKinds[it.Kind] {
						got[it.Kind] += it.Count
					}
				}
				want := c.want
				if target.Name() == model.Name {
					want = c.kept // the model dump keeps Extras as they were
				}
				if want == nil {
					want = map[loss.Kind]int{}
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("*-field losses (-want +got):\n%s\nall losses: %v", d, counted.Items())
				}
			})
		}
		if written < 4 {
			t.Fatalf("%s: only %d other writers", c.name, written)
		}
	}
}
