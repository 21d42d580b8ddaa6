package opencode

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

const treeSample = "testdata/samples/tree-v1.1.34/storage"
const sampleProject = "a5ee440f3a5b15dd18869d161cddabbf9605e671"

func readAll(t *testing.T, ref format.Ref) *session.Session {
	t.Helper()
	r, err := Format{}.Open(ref)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// treeFiles maps each file under root (relative) to its bytes.
func treeFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// stripRaw drops every source byte from a session, so that what is written
// from it comes from the model alone.
func stripRaw(s *session.Session) {
	s.Meta.Raw = nil
	for _, e := range s.Entries {
		e.Raw = nil
	}
}

// Tree -> model -> tree: the same files, byte for byte (through Merge), and
// the same JSON values from the model alone (canonical encoding).
func TestTreeRoundTrip(t *testing.T) {
	refs, err := Format{}.Sessions(treeSample)
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 3 {
		t.Fatalf("got %d sessions, want 3", len(refs))
	}
	want := treeFiles(t, treeSample)
	for _, canonical := range []bool{false, true} {
		out := t.TempDir()
		for _, ref := range refs {
			s := readAll(t, ref)
			if canonical {
				stripRaw(s)
			}
			if _, err := convert.Write(Format{}, &session.SliceReader{S: s}, out, format.WriteOptions{Options: format.OptionValues{OptProject: sampleProject}}, nil); err != nil {
				t.Fatal(err)
			}
		}
		got := treeFiles(t, out)
		var names []string
		for k := range want {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			g, ok := got[k]
			switch {
			case !ok:
				t.Errorf("canonical=%v: %s not written", canonical, k)
			case !canonical && !bytes.Equal(g, want[k]):
				t.Errorf("%s differs:\n got %s\nwant %s", k, g, want[k])
			case canonical && !jsonx.Equal(g, want[k]) && !(k == "migration" && string(g) == string(want[k])):
				t.Errorf("canonical %s differs:\n got %s\nwant %s", k, g, want[k])
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("canonical=%v: extra file %s", canonical, k)
			}
		}
	}
}

func exportSamples(t *testing.T) []string {
	m, _ := filepath.Glob("testdata/samples/export/*.json")
	if len(m) == 0 {
		t.Fatal("no export samples")
	}
	return m
}

// Export -> model -> export gives the same bytes, and the same value from the
// model alone.
func TestExportRoundTrip(t *testing.T) {
	for _, p := range exportSamples(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			in, _ := os.ReadFile(p)
			for _, canonical := range []bool{false, true} {
				r, err := Export{}.OpenReader(p, bytes.NewReader(in))
				if err != nil {
					t.Fatal(err)
				}
				s, _ := session.ReadAll(r)
				if canonical {
					stripRaw(s)
				}
				var buf bytes.Buffer
				if err := convert.WriteTo(Export{}, &buf, &session.SliceReader{S: s}, format.WriteOptions{}, nil); err != nil {
					t.Fatal(err)
				}
				if !canonical && !bytes.Equal(buf.Bytes(), in) {
					t.Errorf("bytes differ:\n%s", firstDiff(buf.String(), string(in)))
				}
				if canonical && !jsonx.Equal(buf.Bytes(), in) {
					t.Errorf("canonical value differs:\n%s", firstDiff(buf.String(), string(in)))
				}
			}
		})
	}
}

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return "line " + strconv.Itoa(i+1) + ":\n got " + la[i] + "\nwant " + lb[i]
		}
	}
	return "lengths differ"
}
