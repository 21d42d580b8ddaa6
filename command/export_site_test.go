package command

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// siteSession is a tree session with id, cwd and a prompt.
func siteSession(id, prompt string) string {
	return `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/home/u/app"}
{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-06T10:00:01.000Z","message":{"role":"user","content":"` + prompt + `","timestamp":1767693601000}}
`
}

// A re-export of a store to its site reads and writes only the pages of
// the sessions that changed (or whose page is gone), plus the index and
// the manifest; --force writes all. Each case exports, sets every output's
// time to a day long past, changes the store, exports again and looks at
// which files have a new time.
func TestSiteReexportWritesOnlyChanged(t *testing.T) {
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		change  func(t *testing.T, store, site string)
		force   bool
		written []string // files with a new time
		gone    []string
		holds   map[string]string // a page and a text it must hold
	}{
		{name: "nothing changed", change: func(*testing.T, string, string) {},
			written: []string{".sesstool-site.json", "index.html"}},
		{name: "one session changed", change: func(t *testing.T, store, _ string) {
			write(t, filepath.Join(store, "b.jsonl"), siteSession("s2", "second thoughts"))
		}, written: []string{".sesstool-site.json", "index.html", "s2.html"}, holds: map[string]string{"s2.html": "second thoughts"}},
		{name: "touched, same bytes", change: func(t *testing.T, store, _ string) {
			now := time.Now()
			if err := os.Chtimes(filepath.Join(store, "b.jsonl"), now, now); err != nil {
				t.Fatal(err)
			}
		}, written: []string{".sesstool-site.json", "index.html"}},
		{name: "same size, other bytes", change: func(t *testing.T, store, _ string) {
			write(t, filepath.Join(store, "c.jsonl"), siteSession("s3", "thirD"))
		}, written: []string{".sesstool-site.json", "index.html", "s3.html"}},
		{name: "a page deleted", change: func(t *testing.T, _, site string) {
			if err := os.Remove(filepath.Join(site, "s1.html")); err != nil {
				t.Fatal(err)
			}
		}, written: []string{".sesstool-site.json", "index.html", "s1.html"}},
		{name: "a session added", change: func(t *testing.T, store, _ string) {
			write(t, filepath.Join(store, "d.jsonl"), siteSession("s4", "fourth"))
		}, written: []string{".sesstool-site.json", "index.html", "s4.html"}},
		{name: "a session removed", change: func(t *testing.T, store, _ string) {
			if err := os.Remove(filepath.Join(store, "c.jsonl")); err != nil {
				t.Fatal(err)
			}
		}, written: []string{".sesstool-site.json", "index.html"}, gone: []string{"s3.html"}},
		{name: "force", change: func(*testing.T, string, string) {}, force: true,
			written: []string{".sesstool-site.json", "index.html", "s1.html", "s2.html", "s3.html"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			store, site := filepath.Join(dir, "store"), filepath.Join(dir, "site")
			write(t, filepath.Join(store, "a.jsonl"), siteSession("s1", "first"))
			write(t, filepath.Join(store, "b.jsonl"), siteSession("s2", "second"))
			write(t, filepath.Join(store, "c.jsonl"), siteSession("s3", "third"))
			env, _, errb := testEnv("")
			if err := Export(env, ExportOptions{Kind: "html", Out: site, Paths: []string{store}}); err != nil {
				t.Fatalf("first export: %v\n%s", err, errb)
			}
			ents, _ := os.ReadDir(site)
			for _, e := range ents {
				if err := os.Chtimes(filepath.Join(site, e.Name()), old, old); err != nil {
					t.Fatal(err)
				}
			}
			tc.change(t, store, site)
			env, out, errb := testEnv("")
			if err := Export(env, ExportOptions{Kind: "html", Out: site, Force: tc.force, Paths: []string{store}}); err != nil {
				t.Fatalf("re-export: %v\n%s", err, errb)
			}
			var written []string
			ents, _ = os.ReadDir(site)
			for _, e := range ents {
				fi, err := e.Info()
				if err != nil {
					t.Fatal(err)
				}
				if !fi.ModTime().Equal(old) {
					written = append(written, e.Name())
				}
			}
			sort.Strings(written)
			if strings.Join(written, " ") != strings.Join(tc.written, " ") {
				t.Errorf("written %v, want %v\nstdout:\n%s", written, tc.written, out)
			}
			// what is printed is what was written
			for _, n := range tc.written {
				if n != ".sesstool-site.json" && !strings.Contains(out.String(), filepath.Join(site, n)+"\n") {
					t.Errorf("%s written but not printed:\n%s", n, out)
				}
			}
			for _, n := range tc.gone {
				if _, err := os.Stat(filepath.Join(site, n)); err == nil {
					t.Errorf("%s is still there", n)
				}
			}
			for page, text := range tc.holds {
				b, err := os.ReadFile(filepath.Join(site, page))
				if err != nil || !strings.Contains(string(b), text) {
					t.Errorf("%s does not hold %q (%v)", page, text, err)
				}
			}
			// every session of the store is in the index, written or not
			idx, _ := os.ReadFile(filepath.Join(site, "index.html"))
			for _, p := range []string{"s1.html", "s2.html"} {
				if !strings.Contains(string(idx), `href="`+p+`"`) {
					t.Errorf("the index does not link %s", p)
				}
			}
		})
	}
}

// A directory sesstool did not make a site of is not updated: a file
// where a page would go, or an index, is refused without --force, and so
// is a manifest that is not sesstool's.
func TestSiteForeignDirRefused(t *testing.T) {
	for _, tc := range []struct {
		name, file, content string
	}{
		{"a page", "s1.html", "mine"},
		{"an index", "index.html", "mine"},
		{"someone's manifest", ".sesstool-site.json", `{"generator":"other"}`},
		{"a damaged manifest", ".sesstool-site.json", `{"gener`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			store, site := filepath.Join(dir, "store"), filepath.Join(dir, "site")
			write(t, filepath.Join(store, "a.jsonl"), siteSession("s1", "first"))
			write(t, filepath.Join(store, "b.jsonl"), siteSession("s2", "second"))
			write(t, filepath.Join(site, tc.file), tc.content)
			env, _, _ := testEnv("")
			err := Export(env, ExportOptions{Kind: "html", Out: site, Paths: []string{store}})
			if Code(err) != ExitIO {
				t.Fatalf("exit %d (%v), want %d", Code(err), err, ExitIO)
			}
			if b, _ := os.ReadFile(filepath.Join(site, tc.file)); string(b) != tc.content {
				t.Errorf("%s was changed", tc.file)
			}
			if _, err := os.Stat(filepath.Join(site, "s2.html")); err == nil {
				t.Error("a page was written")
			}
			env, _, errb := testEnv("")
			if err := Export(env, ExportOptions{Kind: "html", Out: site, Force: true, Paths: []string{store}}); err != nil {
				t.Fatalf("--force: %v\n%s", err, errb)
			}
		})
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A Claude Code session is its transcript and the folder beside it: a
// change to a sub-agent's file renders that session's page again, and
// only it.
func TestSiteReexportSeesSubagents(t *testing.T) {
	src := filepath.Join("..", "testdata", "samples", "claude", "store", "projects", "-home-dev-app")
	const id = "1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"
	uuid := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	other := func(s string) string {
		return uuid.ReplaceAllStringFunc(s, func(u string) string { return "e" + u[1:] })
	}
	dir := t.TempDir()
	store, site := filepath.Join(dir, "store"), filepath.Join(dir, "site")
	proj := filepath.Join(store, "projects", "-home-dev-app")
	for _, rel := range []string{id + ".jsonl", id + "/subagents/agent-a1b2c3d.jsonl", id + "/subagents/agent-a1b2c3d.meta.json"} {
		b, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			t.Skip("the Claude Code sample:", err)
		}
		write(t, filepath.Join(proj, rel), string(b))
		write(t, filepath.Join(proj, other(rel)), other(string(b))) // a second session, every id another
	}
	env, _, errb := testEnv("")
	if err := Export(env, ExportOptions{Kind: "html", Out: site, Paths: []string{store}}); err != nil {
		t.Fatalf("first export: %v\n%s", err, errb)
	}
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	ents, _ := os.ReadDir(site)
	for _, e := range ents {
		os.Chtimes(filepath.Join(site, e.Name()), old, old)
	}
	agent := filepath.Join(proj, other(id), "subagents", "agent-a1b2c3d.jsonl")
	b, err := os.ReadFile(agent)
	if err != nil {
		t.Fatal(err)
	}
	write(t, agent, strings.Replace(string(b), `"content":"ls"`, `"content":"ls -la"`, 1))
	env, out, errb := testEnv("")
	if err := Export(env, ExportOptions{Kind: "html", Out: site, Paths: []string{store}}); err != nil {
		t.Fatalf("re-export: %v\n%s", err, errb)
	}
	var written []string
	ents, _ = os.ReadDir(site)
	for _, e := range ents {
		if fi, _ := e.Info(); !fi.ModTime().Equal(old) {
			written = append(written, e.Name())
		}
	}
	sort.Strings(written)
	want := []string{".sesstool-site.json", other(id) + ".html", "index.html"}
	if strings.Join(written, " ") != strings.Join(want, " ") {
		t.Errorf("written %v, want %v\n%s", written, want, out)
	}
}
