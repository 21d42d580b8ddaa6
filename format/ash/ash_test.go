package ash

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// sessionDirs lists every session directory of the samples in testdata,
// and of ash's upstream test fixtures in the shared folder when it is there
// (the project does not carry copies of them; TestUpstreamFixtures needs them).
func sessionDirs(t *testing.T) []string {
	t.Helper()
	var out []string
	roots := []string{"testdata"}
	if p, ok := shared.Lookup(upstream); ok {
		roots = append(roots, p)
	}
	for _, root := range roots {
		err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
			if err == nil && fi.Name() == ContextFile && !strings.Contains(p, "/stores/") {
				out = append(out, filepath.Dir(p))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(out)
	if len(out) < 10 {
		t.Fatalf("found %d sample sessions, want at least 10", len(out))
	}
	return out
}

// upstream is ash's own test fixtures, under the shared samples.
const upstream = "ash/upstream-test-fixtures"

// upstreamDir is where the shared fixture dir is, or skips t without it.
func upstreamDir(t *testing.T, rel string) string {
	t.Helper()
	return shared.Sample(t, upstream+"/"+rel)
}

// shown is how a session directory is named in golden files: the shared
// fixtures as testdata/upstream-test-fixtures/..., wherever the shared
// folder is.
func shown(dir string) string {
	root, _ := shared.Lookup(upstream)
	if rel, ok := strings.CutPrefix(dir, root+string(filepath.Separator)); ok {
		return "testdata/upstream-test-fixtures/" + filepath.ToSlash(rel)
	}
	return dir
}

// TestUpstreamFixtures makes the shared fixtures' absence a skip (a failure
// under SESSTOOL_REQUIRE_PEERS=1) rather than a silent gap in the tests
// that walk sessionDirs.
func TestUpstreamFixtures(t *testing.T) {
	if n := len(shared.Samples(t, upstream+"/*/*/"+ContextFile)); n != 8 {
		t.Errorf("%d upstream fixtures, want 8", n)
	}
}

func TestValidateGolden(t *testing.T) {
	for _, dir := range sessionDirs(t) {
		name := strings.ReplaceAll(strings.TrimPrefix(shown(dir), "testdata/"), "/", "_")
		t.Run(name, func(t *testing.T) {
			rep := &report.Report{}
			if err := (Format{}).Validate(dir, rep, format.ValidateOptions{Workers: 2}); err != nil {
				t.Fatal(err)
			}
			var text, js bytes.Buffer
			if err := rep.WriteText(&text, &text); err != nil {
				t.Fatal(err)
			}
			if err := rep.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, "validate/"+name+".txt", []byte(strings.ReplaceAll(text.String(), dir, shown(dir))))
			golden.Assert(t, "validate/"+name+".json", []byte(strings.ReplaceAll(js.String(), dir, shown(dir))))
			invalid := strings.Contains(dir, "/invalid/") || strings.Contains(dir, "generated-v1")
			if got := rep.Errors() > 0; got != invalid {
				t.Errorf("errors=%d, want invalid=%v", rep.Errors(), invalid)
			}
		})
	}
}

// TestInvalidReasons pins each invalid sample to the rule its README names.
func TestInvalidReasons(t *testing.T) {
	for dir, rule := range map[string]string{
		"invalid/bad-json":                           "json-syntax",
		"invalid/header-missing-id":                  "schema",
		"invalid/legacy-v1-header":                   "legacy-version",
		"invalid/tool-result-block-missing-is-error": "schema",
		"invalid/unknown-content-block":              "schema",
	} {
		rep := &report.Report{}
		if err := (Format{}).Validate(upstreamDir(t, dir), rep, format.ValidateOptions{}); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range rep.Findings() {
			found = found || f.Rule == rule && f.Severity == report.Error
		}
		if !found {
			t.Errorf("%s: no %s error in %v", dir, rule, rep.Findings())
		}
	}
}

// readDir returns every file of a session directory, by relative path.
func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRoundTrip: ash -> model -> ash gives every file back byte for byte.
func TestRoundTrip(t *testing.T) {
	for _, dir := range sessionDirs(t) {
		if strings.Contains(dir, "/invalid/") {
			continue
		}
		t.Run(dir, func(t *testing.T) {
			r, err := (Format{}).Open(format.Ref{Path: dir})
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			files, err := convert.Write(Format{}, r, out, format.WriteOptions{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := readDir(t, dir)
			got := readDir(t, filepath.Dir(files[0]))
			if len(got) != len(want) {
				t.Errorf("wrote %d files, source has %d: %v", len(got), len(want), files)
			}
			for name, w := range want {
				if !bytes.Equal(got[name], w) {
					t.Errorf("%s differs:\n got %q\nwant %q", name, got[name], w)
				}
			}
		})
	}
}

// TestCanonical proves the model holds everything: the writer's canonical
// encoding alone (without merging the source bytes) is JSON-equal to every
// source line.
func TestCanonical(t *testing.T) {
	for _, dir := range sessionDirs(t) {
		if strings.Contains(dir, "/invalid/") {
			continue
		}
		t.Run(dir, func(t *testing.T) {
			r, err := (Format{}).Open(format.Ref{Path: dir})
			if err != nil {
				t.Fatal(err)
			}
			s, err := session.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			s.Meta.Raw = nil
			for _, e := range s.Entries {
				e.Raw = nil
				if e.Message != nil {
					for i := range e.Message.Content {
						if n := noteOf[callNote](&e.Message.Content[i].Source); n != nil {
							n.Raw = nil
						}
					}
				}
			}
			out := t.TempDir()
			files, err := convert.Write(Format{}, &session.SliceReader{S: s}, out, format.WriteOptions{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := readDir(t, filepath.Dir(files[0]))
			for name, w := range readDir(t, dir) {
				gl, wl := lines(got[name]), lines(w)
				if len(gl) != len(wl) {
					t.Errorf("%s: %d lines, want %d", name, len(gl), len(wl))
					continue
				}
				for i := range wl {
					if !jsonx.Equal(gl[i], wl[i]) {
						t.Errorf("%s:%d canonical\n got %s\nwant %s", name, i+1, gl[i], wl[i])
					}
				}
			}
		})
	}
}

func lines(b []byte) [][]byte {
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("{\n")) {
		return [][]byte{b} // state.json: one document
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

// TestStore validates a store: each session, and a directory that holds a
// context.jsonl without a header is reported, not skipped.
func TestStore(t *testing.T) {
	f := Format{}
	if !f.Detect("testdata/stores/with-broken") {
		t.Fatal("store not detected")
	}
	rep := &report.Report{}
	if err := f.Validate("testdata/stores/with-broken", rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text, &text); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "validate/store-with-broken.txt", text.Bytes())
	if rep.Errors() != 1 {
		t.Errorf("errors = %d, want 1 (the broken directory)", rep.Errors())
	}
}

// The conversation tree of an ash session is built by the rule its caps
// declare: the reader hands it over in every session it reads.
func TestMessageLinksDeclared(t *testing.T) {
	if !caps.MessageLinks {
		t.Fatal("ash's caps do not declare that its tree links messages only")
	}
	for _, dir := range []string{"testdata/generated-v1/sessions/telegram_-542863895_77", "testdata/generated-v2/sessions/cli"} {
		r, err := (Format{}).Open(format.Ref{Path: dir})
		if err != nil {
			t.Fatal(err)
		}
		got := r.Meta().MessageLinks
		r.Close()
		if got != caps.MessageLinks {
			t.Errorf("%s: Meta.MessageLinks = %v, want the caps' %v", dir, got, caps.MessageLinks)
		}
	}
}

// A key twice in state.json is an error at its second use: ash (Python)
// reads the last value, sesstool the first.
func TestStateDuplicateKey(t *testing.T) {
	dir := copyDir(t, "testdata/generated-v2/sessions/cli")
	p := filepath.Join(dir, StateFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte(`  "user_id": null,`), []byte(`  "user_id": null,`+"\n"+`  "provider": "telegram",`), 1)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	rep := &report.Report{}
	if err := (Format{}).Validate(dir, rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	f := rep.Findings()
	if len(f) != 1 || f[0].Rule != "duplicate-key" || f[0].Path != p || f[0].Line != 5 || f[0].Column != 3 || !strings.Contains(f[0].Message, `"provider"`) {
		t.Errorf("findings %v, want one duplicate-key error at %s:5:3", f, p)
	}
}
