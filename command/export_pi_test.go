package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/registry"
)

// piUIWords are words pi's exporter puts into its message pane itself
// (buttons, hints, counters), not taken from the session.
var piUIWords = map[string]bool{
	"show": true, "more": true, "less": true, "lines": true, "line": true, "expand": true, "collapse": true,
	"click": true, "ctrl": true, "copy": true, "copied": true, "link": true, "thinking": true, "output": true,
	"earlier": true, "hidden": true, "tokens": true, "branch": true, "summary": true, "compaction": true,
	"model": true, "level": true, "error": true, "result": true, "tool": true, "tools": true, "results": true,
	"switched": true, // "Switched to model: ..." labels a model change
}

// TestExportBesidePi runs pi's own exporter (the anchor) and ours on the same
// pi session and requires every word pi's page shows in its message pane to
// be in ours too. It needs the tree reader, node, and the peers installed by
// scripts/setup ($SESSTOOL_PEERS/pi-export.mjs), and Chromium.
func TestExportBesidePi(t *testing.T) {
	if _, err := registry.Lookup("tree"); err != nil {
		t.Skip("needs the tree (pi) reader, which is not in this build")
	}
	peers := os.Getenv("SESSTOOL_PEERS")
	script := filepath.Join(peers, "pi-export.mjs")
	node, err := exec.LookPath("node")
	if peers == "" || err != nil || !fileExists(script) {
		browsertest.NeedPeer(t, "pi's exporter not available (set SESSTOOL_PEERS to scripts/setup's .cache/peers, with node on PATH)")
	}
	samples, _ := filepath.Glob("../testdata/samples/tree/*.jsonl")
	if len(samples) == 0 {
		t.Fatal("no tree samples in testdata/samples/tree")
	}
	// under -short, the project's samples only (the shared ones are the
	// biggest pages)
	if !short.On() {
		samples = append(samples, shared.Samples(t, "pi/*.jsonl")...)
	}
	b := browsertest.New(t)
	seen := map[string]bool{}
	for _, s := range samples {
		if seen[filepath.Base(s)] {
			continue
		}
		seen[filepath.Base(s)] = true
		t.Run(filepath.Base(s), func(t *testing.T) {
			dir := t.TempDir()
			piOut := filepath.Join(dir, "pi.html")
			cmd := exec.Command(node, script, s, piOut)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if hung, err := hangwatch.Run(cmd, hangwatch.Default); err != nil || hung != "" {
				t.Fatalf("pi-export: %v %s\n%s", err, hung, out.Bytes())
			}
			ours := filepath.Join(dir, "ours.html")
			env, _, _ := testEnv("")
			if err := Export(env, ExportOptions{Kind: "html", Out: ours, Paths: []string{s}}); err != nil {
				t.Fatalf("export: %v", err)
			}
			b.Open(t, ours)
			b.RenderAll(t)
			var mine string
			mine = strings.ToLower(b.Words(t, "body"))
			b.Clean(t, ours)

			// pi's page draws itself; wait for its message pane
			b.Do(t, navigate(piOut))
			b.Wait(t, `document.querySelectorAll('#messages > *').length > 0`)
			var theirs string
			theirs = b.Words(t, "#messages")
			var missing []string
			for w := range words(theirs) {
				if !piUIWords[w] && !strings.Contains(mine, w) {
					missing = append(missing, w)
				}
			}
			sort.Strings(missing)
			if len(missing) > 0 {
				t.Errorf("%d words on pi's page are not on ours: %s", len(missing), strings.Join(missing[:min(len(missing), 40)], " "))
			}
			t.Logf("pi's page: %d distinct words, all on ours but %d", len(words(theirs)), len(missing))
		})
	}
}

var piWordRe = regexp.MustCompile(`[A-Za-z]{4,}`)

func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range piWordRe.FindAllString(s, -1) {
		out[strings.ToLower(w)] = true
	}
	return out
}

func navigate(path string) chromedp.Action[chromedp.Void] { return chromedp.Navigate("file://" + path) }
