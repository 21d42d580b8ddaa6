package command

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/export/markdown"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	"github.com/sesstool/sesstool/internal/testkit/short"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// pageOverhead is what a page costs before any session data: style, script
// and skeleton, plus 1 KiB for the header a session with any metadata gets
// (title, ids, cwd, provider), which a session of a few hundred bytes can
// exceed, plus the first cards, which the page also carries as plain HTML
// for readers without JavaScript (at most html.FirstScreenBytes). A page
// must be no larger than its session plus this.
var pageOverhead = func() int64 {
	tr, _ := transcript.New(&session.Session{}, "")
	var b bytes.Buffer
	_ = html.Write(&b, tr)
	return int64(b.Len()) + 1<<10 + html.FirstScreenBytes
}()

// TestExportSamples exports every session found under testdata/samples/<format>/
// (for each registered layout, by name or alias) as HTML and Markdown, and
// checks each page in Chromium: the active path is all there, another branch
// can be switched to, nothing is logged and nothing is loaded. Invalid
// samples must be refused with exit 1. It covers whatever layouts and
// samples the build has.
func TestExportSamples(t *testing.T) {
	var formats []format.Format
	for _, f := range registry.All {
		if f.Name() != "fake" {
			formats = append(formats, f)
		}
	}
	if len(formats) == 0 {
		t.Skip("no layouts registered in this build: nothing to read samples with")
	}
	exported := 0
	for _, f := range formats {
		for _, name := range append([]string{f.Name()}, f.Aliases()...) {
			dir := filepath.Join("..", "testdata", "samples", name)
			if _, err := os.Stat(dir); err != nil {
				continue
			}
			units, skips := pipeline.Walk(dir, f)
			if pipeline.Code(skips) == 3 {
				t.Errorf("walk %s: %v", dir, skips)
				continue
			}
			for i, u := range units {
				t.Run(f.Name()+"/"+strings.TrimPrefix(u.Path, dir+string(filepath.Separator)), func(t *testing.T) {
					// Every unit is exported and its page and Markdown
					// checked; the page is opened in the browser (what
					// costs) for every unit, or under -short for the first
					// of each layout's folder.
					var b *browsertest.Browser
					if i == 0 || !short.On() {
						// a tab per subtest in the package's one browser, closed when the subtest ends
						b = browsertest.New(t)
					} else {
						t.Logf("-short: the page is not opened in the browser; go test -run '^%s$' without -short opens it", t.Name())
					}
					exported += exportSample(t, b, f, u.Path)
				})
			}
		}
	}
	if exported == 0 {
		t.Errorf("layouts %v are registered but no sample under testdata/samples/ was exported", registry.Names())
	}
}

// exportSample exports every session of the sample at path and checks the
// page and the Markdown; with a browser b, it also opens each page in it.
func exportSample(t *testing.T, b *browsertest.Browser, f format.Format, path string) int {
	rep := &report.Report{}
	if err := f.Validate(path, rep, format.ValidateOptions{}); err != nil {
		t.Fatalf("validate: %v", err)
	}
	if rep.Errors() > 0 {
		env, _, _ := testEnv("")
		err := Export(env, ExportOptions{Kind: "html", Out: filepath.Join(t.TempDir(), "x.html"), From: f.Name(), Paths: []string{path}})
		if Code(err) != ExitInvalid {
			t.Errorf("invalid sample: export gave %v (exit %d), want exit 1", err, Code(err))
		}
		return 0
	}
	refs, err := f.Sessions(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ref := range refs {
		r, err := f.Open(ref)
		if err != nil {
			t.Fatalf("open %v: %v", ref, err)
		}
		s, err := session.ReadAll(r)
		if err != nil {
			t.Fatalf("read %v: %v", ref, err)
		}
		tr, err := transcript.New(s, "")
		if err != nil {
			t.Fatal(err)
		}
		var page, md bytes.Buffer
		if err := html.Write(&page, tr); err != nil {
			t.Fatal(err)
		}
		if err := markdown.Write(&md, tr); err != nil {
			t.Fatal(err)
		}
		if len(refs) == 1 {
			if in := sizeOf(path); int64(page.Len()) > in+pageOverhead {
				t.Errorf("page is %d bytes for a %d-byte session (+%d page overhead)", page.Len(), in, pageOverhead)
			}
		}
		for _, e := range tr.Path {
			if e.Message != nil && tr.Visible(e) {
				for _, w := range regexp.MustCompile(`[A-Za-z]{4,}`).FindAllString(e.Message.Text(), 4) {
					if !strings.Contains(md.String(), w) {
						t.Errorf("markdown lacks %q of entry %s", w, e.ID)
					}
				}
			}
		}
		out := filepath.Join(t.TempDir(), fmt.Sprintf("page-%d.html", n))
		if err := os.WriteFile(out, page.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if b != nil {
			b.Open(t, out)
			b.CheckPath(t, tr)
			switchBranch(t, b, s, tr)
			b.Clean(t, out)
		}
		n++
	}
	return n
}

// switchBranch clicks, in the tree, the first shown entry of another branch
// and checks that the page then shows the newest branch below it.
func switchBranch(t *testing.T, b *browsertest.Browser, s *session.Session, tr *transcript.Transcript) {
	on := map[*session.Entry]bool{}
	for _, e := range tr.Path {
		on[e] = true
	}
	// a sub-agent run's entries are shown inside its call, not as a
	// branch (the page leaves them out of the branches), and the cards of
	// such a run are left out
	inRun := map[int]bool{}
	for _, r := range tr.Runs() {
		for _, i := range r.Entries {
			inRun[i] = true
		}
	}
	index := map[*session.Entry]int{}
	kids := make([][]int, len(s.Entries))
	for i, e := range s.Entries {
		index[e] = i
		if p := tr.Conv.Parent(i); p >= 0 && !inRun[i] {
			kids[p] = append(kids[p], i)
		}
	}
	for leaf := range s.Entries {
		if len(kids[leaf]) > 0 || leaf == tr.LeafAt || s.Entries[leaf].ID == "" {
			continue
		}
		for _, e := range tr.Conv.PathTo(leaf) {
			if on[e] || !tr.Visible(e) || inRun[index[e]] || tr.InRun(index[e]) {
				continue
			}
			newest := s.Entries[newestLeaf(kids, index[e])]
			b.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tree .row[data-i="%d"]`, index[e]))))
			other, err := transcript.New(s, newest.ID)
			if err != nil {
				t.Fatal(err)
			}
			b.CheckPath(t, other)
			return
		}
	}
}

// newestLeaf is the last entry in source order below i that nothing hangs
// from, as the page picks it.
func newestLeaf(kids [][]int, i int) int {
	best, stack, seen := -1, []int{i}, map[int]bool{}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if len(kids[x]) == 0 && x > best {
			best = x
		}
		stack = append(stack, kids[x]...)
	}
	if best < 0 {
		return i
	}
	return best
}

func sizeOf(p string) int64 {
	var n int64
	filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
