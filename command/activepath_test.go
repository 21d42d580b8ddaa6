package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/mapping"
	"github.com/sesstool/sesstool/session"
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
	pi := piReference(t, src)
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
			pi.check(t, back, "the round trip through "+to)
		})
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

// piRef is what pi builds as its context from a source session, when the
// peers are there (SESSTOOL_PEERS), to hold a round trip's against.
type piRef struct {
	node, script string
	want         piSees
	ok           bool
}

func piReference(t *testing.T, src string) piRef {
	t.Helper()
	if os.Getenv("SESSTOOL_PEERS") == "" {
		return piRef{}
	}
	node, script := piPeer(t)
	return piRef{node: node, script: script, want: runPiContext(t, node, script, src), ok: true}
}

// check requires pi's context of file to be the source's; what says
// where file came from.
func (p piRef) check(t *testing.T, file, what string) {
	t.Helper()
	if !p.ok {
		return
	}
	got := runPiContext(t, p.node, p.script, file)
	if got.Messages != p.want.Messages || got.Digest != p.want.Digest || !cmp.Equal(got.Roles, p.want.Roles) {
		t.Errorf("pi's context of %s is %d messages %v (digest %s), of the source %d %v (digest %s)",
			what, got.Messages, got.Roles, got.Digest, p.want.Messages, p.want.Roles, p.want.Digest)
	}
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
	for _, e := range mapping.NewConversation(mapping.Main(s.Entries)).Path() {
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
