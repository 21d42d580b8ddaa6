package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/opencode"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// Real programs accept what convert writes: pi's SessionManager opens every
// tree file written from every sample, and OpenCode 1.1.34 exports every
// store written from every sample.

// piSees is what pi's own SessionManager sees in a file.
type piSees = peers.PiSees

// runPiContext has pi open every path in one node process.
func runPiContext(t *testing.T, node string, paths []string) map[string]piSees {
	return peers.PiContexts(t, node, paths)
}

func TestPiOpensWhatWeWrite(t *testing.T) {
	if !haveLayout("tree") {
		t.Skip("layout tree is not in this build")
	}
	node := peers.Pi(t)
	// Every sample is written first, then pi opens every file in one node
	// process (loading pi takes seconds of CPU), then each sample's files
	// are judged in a subtest of their own.
	written := map[string][]string{} // sample name -> tree files written
	root := t.TempDir()              // outlives the subtests that write into it
	for i, s := range matrixSamples {
		t.Run("write/"+s.name, func(t *testing.T) {
			if !haveLayout(s.layout) {
				t.Skipf("layout %s is not in this build", s.layout)
			}
			dir := filepath.Join(root, strconv.Itoa(i))
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			convertCLI(t, ConvertOptions{From: s.layout, To: "tree", Out: out, Paths: []string{s.source(t)}})
			files := []string{out}
			if fi, err := os.Stat(out); err == nil && fi.IsDir() {
				files, _ = filepath.Glob(filepath.Join(out, "*.jsonl"))
			}
			if len(files) == 0 {
				t.Fatal("no tree file written")
			}
			written[s.name] = files
		})
	}
	var all []string
	for _, s := range matrixSamples {
		all = append(all, written[s.name]...)
	}
	seen := runPiContext(t, node, all)
	for _, s := range matrixSamples {
		files, ok := written[s.name]
		if !ok {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			sources := map[string]int{} // source session id -> messages on its active path
			for _, src := range sessionsOf(t, s.layout, s.source(t)) {
				sources[src.Meta.ID] = sourceMessages(src)
			}
			for _, f := range files {
				got := seen[f]
				if got.Error != "" {
					t.Errorf("%s: pi cannot open it: %s", filepath.Base(f), got.Error)
					continue
				}
				ours := sessionsOf(t, "tree", f)[0]
				// A tree source keeps its own version (the pi samples are
				// v1, which pi migrates on open); everything else is v3,
				// which pi must take as it is.
				if s.layout != "tree" && (got.RewrittenByPi || got.Version != 3) {
					t.Errorf("%s: pi rewrote the file (version %d): it needed a migration", filepath.Base(f), got.Version)
				}
				if want := contextMessages(ours); got.Messages != want {
					t.Errorf("%s: pi builds a context of %d messages %v, ours has %d", filepath.Base(f), got.Messages, got.Roles, want)
				}
				t.Logf("%s: pi v%d rewritten=%v, %d entries, context %d messages %v", filepath.Base(f), got.Version, got.RewrittenByPi, got.Entries, got.Messages, got.Roles)
				// Without a compaction, pi's context is the source's active
				// path: every message of the main conversation, tool results
				// included (ash hangs them off the message before).
				if n, ok := sources[sourceID(t, f, s)]; ok && n >= 0 && s.layout != "tree" && got.Messages != n {
					t.Errorf("%s: pi builds a context of %d messages %v, the source's active path has %d", filepath.Base(f), got.Messages, got.Roles, n)
				}
				if got.Messages == 0 {
					t.Errorf("%s: pi sees no messages", filepath.Base(f))
				}
			}
		})
	}
}

// sourceMessages counts the messages on a session's active path (main
// conversation), or -1 when it has a compaction (pi then summarises).
func sourceMessages(s *session.Session) int {
	path, _ := convtree.ActivePath(s.Entries, s.Meta.MessageLinks)
	n := 0
	for _, e := range path {
		switch {
		case e.Kind == session.KindCompaction:
			return -1
		case e.Kind == session.KindMessage && e.Message != nil:
			if onlyToolResults(e.Message) {
				n += len(e.Message.Content) // ash: each result block is a result message
				continue
			}
			n++
		}
	}
	return n
}

func onlyToolResults(m *session.Message) bool {
	for _, b := range m.Content {
		if b.Type != session.BlockToolResult {
			return false
		}
	}
	return len(m.Content) > 0
}

// sourceID finds which source session a written tree file came from: the
// tree writer keeps a UUID session id and derives one from any other.
func sourceID(t *testing.T, f string, s sample) string {
	t.Helper()
	id := sessionsOf(t, "tree", f)[0].Meta.ID
	for _, src := range sessionsOf(t, s.layout, s.source(t)) {
		if src.Meta.ID == id || spell.UUID("tree:"+src.Meta.ID) == id {
			return src.Meta.ID
		}
	}
	t.Fatalf("%s: no source session has id %s", f, id)
	return ""
}

// contextMessages counts the messages pi's buildSessionContext hands the
// model (../shared/formats/tree-pi.md §3): the path from the leaf (the last
// entry in the file) to the root; when a compaction is on it, the last one's
// summary, then the path entries from its first kept entry up to it (none
// when that entry is not found), then everything after it. Messages and
// custom messages count, and branch summaries with a summary.
func contextMessages(s *session.Session) int {
	path := convtree.NewConversation(s.Entries, s.Meta.MessageLinks).Path()
	if len(path) == 0 {
		return 0
	}
	last := -1
	for i, e := range path {
		if e.Kind == session.KindCompaction {
			last = i
		}
	}
	counts := func(es []*session.Entry) int {
		n := 0
		for _, e := range es {
			switch {
			case e.Kind == session.KindMessage, e.Kind == session.KindCustomMessage:
				n++
			case e.Kind == session.KindBranchSummary && e.BranchSummary != nil && e.BranchSummary.Summary != "":
				n++
			}
		}
		return n
	}
	if last < 0 {
		return counts(path)
	}
	n := 1 // the summary
	first := path[last].Compaction.FirstKeptID
	for i := 0; i < last; i++ {
		if path[i].ID == first {
			n += counts(path[i:last])
			break
		}
	}
	return n + counts(path[last+1:])
}

// TestOpenCodeExportsWhatWeWrite converts every sample into one OpenCode
// store (project "global", so OpenCode finds it from a non-git directory)
// and has OpenCode 1.1.34 export every session in it; its export must be
// JSON-equal to our own export of what we wrote.
func TestOpenCodeExportsWhatWeWrite(t *testing.T) {
	bin := peers.OpenCode(t)
	home := t.TempDir()
	store := filepath.Join(home, "data", "opencode", "storage")
	// under -short, one sample (pi's tree with branches): one opencode
	// export instead of one per sample
	for _, s := range short.Cases(t, matrixSamples, func(s sample) bool { return s.layout == "tree" }) {
		if !haveLayout(s.layout) {
			continue
		}
		convertCLI(t, ConvertOptions{From: s.layout, To: "opencode", Out: store, Options: format.OptionValues{opencode.OptProject: "global"}, Force: true, Paths: []string{s.source(t)}})
	}
	refs, err := opencode.Format{}.Sessions(store)
	if err != nil {
		t.Fatal(err)
	}
	// Some samples hold the same sessions (the OpenCode tree, database and
	// exports), which land on the same files.
	if want := short.Size(12, 1); len(refs) < want {
		t.Fatalf("%d sessions in the store, want at least %d", len(refs), want)
	}
	t.Logf("%d sessions in the store", len(refs))
	for _, ref := range refs {
		t.Run(ref.ID, func(t *testing.T) {
			r, err := opencode.Format{}.Open(ref)
			if err != nil {
				t.Fatal(err)
			}
			want, err := opencode.Encode(r, format.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := peers.OpenCodeExport(t, bin, home, ref.ID)
			if !jsonx.Equal(got, want) {
				var g, w any
				if err := json.Unmarshal(got, &g); err != nil {
					t.Fatalf("OpenCode's export is not JSON (%v); %d bytes, the first and last: %s ... %s", err, len(got), head(got[:min(len(got), 300)]), got[max(0, len(got)-300):])
				}
				json.Unmarshal(want, &w)
				t.Errorf("OpenCode's export differs from ours (-ours +OpenCode's):\n%s", head([]byte(cmp.Diff(w, g))))
			}
		})
	}
}

func head(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 3000 {
		s = s[:3000] + "..."
	}
	return s
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
