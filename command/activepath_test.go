package command

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// labelLeaf is a pi session whose leaf is a label on the main branch,
// written after an alternate branch off the first prompt: the active path
// has 9 messages, the other branch 3 with the prompt.
const labelLeaf = "testdata/label-leaf.jsonl"

// TestActivePathSurvives converts labelLeaf to every writable layout and
// back to pi's tree: what each layout resumes at (its active path, read by
// sesstool) and what pi builds from the round trip are the source's active
// path, whether the layout holds the tree or keeps one line of it.
func TestActivePathSurvives(t *testing.T) {
	src := fixturePath(t, labelLeaf)
	want := pathMessages(sessionsOf(t, "tree", src)[0])
	if len(want) != 9 {
		t.Fatalf("the fixture's active path has %d messages, want 9: %v", len(want), want)
	}
	backs, kept := map[string]string{}, t.TempDir() // target -> the round trip's tree file, kept past its subtest
	for _, to := range matrixTargets {
		t.Run(to, func(t *testing.T) {
			if !haveLayout(to) {
				t.Skipf("layout %s is not in this build", to)
			}
			mid := filepath.Join(t.TempDir(), "mid")
			if isFileLayout(to) {
				mid += ".out"
			}
			convertCLI(t, ConvertOptions{From: "tree", To: to, Out: mid, Paths: []string{src}})
			if d := cmp.Diff(want, pathMessages(onlySession(t, to, mid))); d != "" {
				t.Errorf("%s resumes on another path (-source +%s):\n%s", to, to, d)
			}
			back := convertBack(t, to, "tree", mid)
			if d := cmp.Diff(want, pathMessages(onlySession(t, "tree", back))); d != "" {
				t.Errorf("the round trip through %s resumes on another path (-source +round trip):\n%s", to, d)
			}
			backs[to] = keep(t, back, kept)
		})
	}
	piAgrees(t, src, backs)
}

// keep moves file into dir (a parent test's), for checks made after the
// subtest that wrote it, whose temporary directory goes with it.
func keep(t *testing.T, file, dir string) string {
	t.Helper()
	d, err := os.MkdirTemp(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(d, filepath.Base(file))
	if err := os.Rename(file, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// piAgrees requires pi's context of each round trip's tree file (by what
// it went through) to be pi's context of the source, when the peers are
// there (SESSTOOL_PEERS). pi reads them all in one node process: loading pi
// costs seconds of CPU.
func piAgrees(t *testing.T, src string, rounds map[string]string) {
	t.Helper()
	if os.Getenv("SESSTOOL_PEERS") == "" {
		return
	}
	node := peers.Pi(t)
	files := []string{src}
	var vias []string
	for via, f := range rounds {
		files, vias = append(files, f), append(vias, via)
	}
	sort.Strings(vias)
	seen := runPiContext(t, node, files)
	want := seen[src]
	if want.Error != "" {
		t.Fatalf("pi cannot open the source: %s", want.Error)
	}
	for _, via := range vias {
		if got := seen[rounds[via]]; got.Error != "" || got.Messages != want.Messages || got.Digest != want.Digest || !cmp.Equal(got.Roles, want.Roles) {
			t.Errorf("pi's context of the round trip through %s is %d messages %v (digest %s%s), of the source %d %v (digest %s)",
				via, got.Messages, got.Roles, got.Digest, got.Error, want.Messages, want.Roles, want.Digest)
		}
	}
}

// fixturePath is the absolute path of a fixture of this package's own.
func fixturePath(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// convertBack converts mid (layout from) to layout to, and returns the one
// session file written.
func convertBack(t *testing.T, from, to, mid string) string {
	t.Helper()
	back := filepath.Join(t.TempDir(), "back")
	convertCLI(t, ConvertOptions{From: from, To: to, Out: back, Paths: []string{mid}})
	files := []string{back}
	if fi, err := os.Stat(back); err == nil && fi.IsDir() {
		files, _ = filepath.Glob(filepath.Join(back, "*.jsonl"))
	}
	if len(files) != 1 {
		t.Fatalf("%d %s files written back, want 1", len(files), to)
	}
	return files[0]
}

func onlySession(t *testing.T, layout, p string) *session.Session {
	t.Helper()
	ss := sessionsOf(t, layout, p)
	if len(ss) != 1 {
		t.Fatalf("%s: %d sessions, want 1", p, len(ss))
	}
	return ss[0]
}

// pathMessages spells the messages of a session's active path as
// "role: text", the text of their text blocks and the names of their calls.
func pathMessages(s *session.Session) []string {
	var out []string
	for _, e := range convtree.NewConversation(convtree.Main(s.Entries), s.Meta.MessageLinks).Path() {
		if e.Kind != session.KindMessage || e.Message == nil {
			continue
		}
		var parts []string
		for _, b := range e.Message.Content {
			switch b.Type {
			case session.BlockText, session.BlockToolResult:
				parts = append(parts, b.Text)
			case session.BlockToolCall:
				parts = append(parts, "call "+b.ToolName)
			}
		}
		out = append(out, string(e.Message.Role)+": "+strings.Join(parts, " | "))
	}
	return out
}
