package model_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/model"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// sample is one session found under a samples folder.
type sample struct {
	name string // path under the folder, plus the session id for a store
	f    format.Format
	ref  format.Ref
	bad  []report.Finding // the errors validate finds in the sample's path
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// samples walks root as `sesstool convert` would and lists every session.
func samples(t *testing.T, root string) []sample {
	t.Helper()
	units, skips := pipeline.Walk(root, nil)
	for _, sk := range skips {
		t.Logf("%s: %s (not a sample)", sk.Path, sk.Message)
	}
	var out []sample
	for _, u := range units {
		rep := &report.Report{}
		if err := u.Format.Validate(u.Path, rep, format.ValidateOptions{}); err != nil {
			t.Errorf("validate %s: %v", u.Path, err)
			continue
		}
		var bad []report.Finding
		for _, f := range rep.Findings() {
			if f.Severity == report.Error {
				bad = append(bad, f)
			}
		}
		refs, err := u.Format.Sessions(u.Path)
		if err != nil {
			t.Errorf("%s: %v", u.Path, err)
			continue
		}
		for _, ref := range refs {
			name := relTo(t, root, ref.Path) // a store's sessions may each have a path of their own
			if ref.ID != "" {
				name += "/" + unsafeName.ReplaceAllString(ref.ID, "_")
			}
			out = append(out, sample{name: name, f: u.Format, ref: ref, bad: bad})
		}
	}
	return out
}

func relTo(t *testing.T, root, p string) string {
	t.Helper()
	rel, err := filepath.Rel(root, p)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(rel)
}

func dump(t *testing.T, s sample) []byte {
	t.Helper()
	r, err := s.f.Open(s.ref)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	var b bytes.Buffer
	if err := (model.Format{}).WriteTo(&b, r, format.WriteOptions{}); err != nil {
		t.Fatalf("dump: %v", err)
	}
	return b.Bytes()
}

// TestSampleGoldens is every reader's test: each session of every sample
// the project made (testdata/samples holds no copies of public files: those
// are read from $SESSTOOL_SHARED below), read into the model and dumped, must equal its golden
// file (golden/samples/<sample>.model.jsonl; -update rewrites them). A
// sample validate refuses but the reader reads (ash v1, a migrate input)
// has a golden too.
func TestSampleGoldens(t *testing.T) {
	all := samples(t, "../../testdata/samples")
	if len(all) < 10 {
		t.Fatalf("only %d sample sessions found", len(all))
	}
	layouts := map[string]bool{}
	for _, s := range all {
		layouts[s.f.Name()] = true
		t.Run(s.name, func(t *testing.T) {
			b := dump(t, s)
			golden.Assert(t, "samples/"+s.name+".model.jsonl", b)
			checkInvariants(t, s, b)
		})
	}
	for _, f := range registry.All {
		if !layouts[f.Name()] {
			t.Errorf("no project-made sample of layout %s", f.Name())
		}
	}
}

// TestSharedSamples checks the samples written by the real programs
// ($SESSTOOL_SHARED/samples), whose dumps the project does not keep.
func TestSharedSamples(t *testing.T) {
	shared := os.Getenv("SESSTOOL_SHARED")
	if shared == "" {
		t.Skip("SESSTOOL_SHARED is not set (scripts/test sets it to ../shared)")
	}
	root := filepath.Join(shared, "samples")
	all := samples(t, root)
	if len(all) < 10 {
		t.Fatalf("only %d sessions found under %s", len(all), root)
	}
	invalid := 0
	for _, s := range all {
		if len(s.bad) > 0 {
			invalid++ // samples of what a layout must refuse: no model to check
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			checkInvariants(t, s, dump(t, s))
		})
	}
	t.Logf("%d sessions checked, %d in invalid samples passed over", len(all)-invalid, invalid)
}

// checkInvariants: a second dump is the same bytes, the dump passes its own
// schema and rules, every entry id is unique and every parent is an entry,
// and reading the dump back and dumping it again changes only "source".
func checkInvariants(t *testing.T, s sample, b []byte) {
	t.Helper()
	if again := dump(t, s); !bytes.Equal(b, again) {
		t.Errorf("two dumps of the same session differ")
	}
	rep := &report.Report{}
	if err := (model.Format{}).ValidateReader(s.name, bytes.NewReader(b), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings() {
		t.Errorf("the dump does not validate: %s", f.Text())
	}
	ids := map[string]bool{}
	var parents []string
	lines(t, b, func(n int, m map[string]any) {
		if n == 1 {
			return
		}
		id, _ := m["id"].(string)
		if id == "" || ids[id] {
			t.Errorf("line %d: entry id %q is empty or not unique", n, id)
		}
		ids[id] = true
		if p, ok := m["parent"].(string); ok {
			parents = append(parents, p)
		}
	})
	for _, p := range parents {
		if !ids[p] {
			t.Errorf("parent %q is not an entry of the session", p)
		}
	}
	r, err := (model.Format{}).OpenReader(s.name, bytes.NewReader(b))
	if err != nil {
		t.Fatalf("read the dump back: %v", err)
	}
	back, err := session.ReadAll(r)
	if err != nil {
		t.Fatalf("read the dump back: %v", err)
	}
	b2, err := model.Dump(back)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := withoutSource(t, b2), withoutSource(t, b); got != want {
		t.Errorf("the dump read back dumps differently:\n%s\nwant\n%s", got, want)
	}
}

func lines(t *testing.T, b []byte, fn func(n int, m map[string]any)) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<30)
	for n := 1; sc.Scan(); n++ {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		fn(n, m)
	}
}

// withoutSource re-encodes every line without its "source" members (the
// meta's, the entry's, its blocks'), which say where the model was read.
func withoutSource(t *testing.T, b []byte) string {
	t.Helper()
	var out strings.Builder
	lines(t, b, func(n int, m map[string]any) {
		stripSource(m)
		j, _ := json.Marshal(m)
		out.Write(j)
		out.WriteByte('\n')
	})
	return out.String()
}

func stripSource(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "source")
		for _, x := range v {
			stripSource(x)
		}
	case []any:
		for _, x := range v {
			stripSource(x)
		}
	}
}
