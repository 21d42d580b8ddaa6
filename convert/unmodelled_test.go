package convert_test

import (
	"io"
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

// TestLossCountsOnlyUnmodelled: the model dump, which declares no
// capabilities, holds a source's unknown members that are extras, so
// converting to it loses none of them; what a layout keeps of its source
// outside the model (an ash history line's members, the members of its
// tool_use line) the stage counts, and reports as lost.
func TestLossCountsOnlyUnmodelled(t *testing.T) {
	header := `{"type":"session","version":"2","id":"s1","created_at":"2026-03-02T09:00:00+00:00","provider":"cli","mood":"calm"}` + "\n"
	context := header +
		`{"type":"message","id":"m1","role":"user","content":"List the files","created_at":"2026-03-02T09:00:01+00:00"}` + "\n" +
		`{"type":"message","id":"m2","role":"assistant","content":[{"type":"text","text":"Listing."},{"type":"tool_use","id":"t1","name":"ls","input":{}}],"created_at":"2026-03-02T09:00:02+00:00","parent_id":"m1","token_count":null,"priority":3}` + "\n" +
		`{"type":"tool_use","id":"t1","message_id":"m2","name":"ls","input":{},"cost_hint":1}` + "\n" +
		`{"type":"tool_result","tool_use_id":"t1","output":"a.txt","success":true}` + "\n"
	history := `{"id":"m1","role":"user","content":"List the files","created_at":"2026-03-02T09:00:01+00:00","display_name":"Ana"}` + "\n"
	cases := []struct {
		name  string
		files map[string]string
		want  map[loss.Kind]int
	}{
		// mood and priority are extras; cost_hint, on ash's own tool_use
		// line, is kept in ash's note on the tool call block.
		{"unknown members", map[string]string{"context.jsonl": context}, map[loss.Kind]int{loss.BlockField: 1}},
		{"and an unknown member of a history line", map[string]string{"context.jsonl": context, "history.jsonl": history},
			map[loss.Kind]int{loss.BlockField: 1, loss.EntryField: 1}},
	}
	ash, err := registry.Lookup("ash")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "s")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, body := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r, err := ash.Open(format.Ref{Path: dir})
			if err != nil {
				t.Fatal(err)
			}
			counted := &loss.Counter{}
			if err := convert.WriteTo(model.Format{}, io.Discard, r, format.WriteOptions{}, counted); err != nil {
				t.Fatal(err)
			}
			got := map[loss.Kind]int{}
			for _, it := range counted.Items() {
				got[it.Kind] += it.Count
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("losses (-want +got):\n%s\nall: %v", d, counted.Items())
			}
		})
	}
}
