package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// compactWindow is a pi session whose last entry is a compaction keeping an
// assistant tool call and its result: pi's context is [summary, assistant,
// toolResult].
const compactWindow = "testdata/compact-window.jsonl"

// TestCompactionWindowThroughOpenCode: OpenCode keeps a compaction as a
// summary message with no first kept entry, and holds a tool call and its
// result as one message; read back, the compaction keeps that message, so
// the window [assistant, toolResult] survives (pi's context with it), and a
// window OpenCode cannot give back is reported as moved on the way there.
func TestCompactionWindowThroughOpenCode(t *testing.T) {
	src := fixturePath(t, compactWindow)
	want := windowOf(t, onlySession(t, "tree", src))
	if d := cmp.Diff([]string{"assistant: call bash", "tool: 48 util.go"}, want); d != "" {
		t.Fatalf("the fixture's window (-want +got):\n%s", d)
	}
	backs, kept := map[string]string{}, t.TempDir() // via -> the round trip's tree file, kept past its subtest
	for _, via := range []string{"opencode", "opencode-export"} {
		t.Run(via, func(t *testing.T) {
			if !haveLayout(via) {
				t.Skipf("layout %s is not in this build", via)
			}
			mid := filepath.Join(t.TempDir(), "mid")
			if isFileLayout(via) {
				mid += ".json"
			}
			lr, _ := convertCLI(t, ConvertOptions{From: "tree", To: via, Out: mid, Paths: []string{src}})
			for _, it := range lr.Losses {
				if it.Kind == loss.FirstKept {
					t.Errorf("tree -> %s reports %s %s for a window it keeps", via, it.Kind, it.Action)
				}
			}
			for _, to := range []string{"tree", "flat"} {
				back := convertBack(t, via, to, mid)
				if d := cmp.Diff(want, windowOf(t, onlySession(t, to, back))); d != "" {
					t.Errorf("the window through %s back to %s (-source +round trip):\n%s", via, to, d)
				}
				if to == "tree" {
					backs[via] = keep(t, back, kept)
				}
			}
		})
	}

	piAgrees(t, src, backs)

	// A wider window than OpenCode gives back is reported on the way there.
	wide := filepath.Join(t.TempDir(), "wide.jsonl")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wide, []byte(strings.Replace(string(b), `"firstKeptEntryId":"f0000004"`, `"firstKeptEntryId":"f0000003"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	lr, _ := convertCLI(t, ConvertOptions{From: "tree", To: "opencode", Out: filepath.Join(t.TempDir(), "oc"), Paths: []string{wide}})
	moved := false
	for _, it := range lr.Losses {
		moved = moved || it.Kind == loss.FirstKept && it.Action == loss.Moved
	}
	if !moved {
		t.Errorf("a window of [user, assistant, toolResult] through OpenCode: no compaction-first-kept moved in %v", lr.Losses)
	}
}

// windowOf is what the last compaction of the active path keeps before it,
// as "role: text" (pathMessages' spelling).
func windowOf(t *testing.T, s *session.Session) []string {
	t.Helper()
	path := convtree.NewConversation(convtree.Main(s.Entries), s.Meta.MessageLinks).Path()
	last := -1
	for i, e := range path {
		if e.Kind == session.KindCompaction {
			last = i
		}
	}
	if last < 0 {
		t.Fatal("no compaction on the active path")
	}
	first := path[last].Compaction.FirstKeptID
	for i := 0; i < last; i++ {
		if path[i].ID == first {
			return pathMessages(&session.Session{Entries: path[i:last]})
		}
	}
	t.Fatalf("the compaction's first kept entry %q is not on the path before it", first)
	return nil
}
