package redact

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Goals over the labelled corpus (testdata/corpus): find at least 99% of
// the secrets, and mask something in at most 1 of 1,000 look-alikes.
const (
	minRecall      = 0.99
	maxFPPerThouse = 1.0
)

func readCorpus(t *testing.T, name string) []sample {
	t.Helper()
	path := filepath.Join("testdata", "corpus", name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sample
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var s sample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: empty", path)
	}
	return out
}

// TestCorpus reports recall over the secrets and false positives per 1,000
// look-alikes, by form, and holds them to the goals.
func TestCorpus(t *testing.T) {
	type tally struct{ n, hit int }
	byForm := map[string]*tally{}
	count := func(form string) *tally {
		if byForm[form] == nil {
			byForm[form] = &tally{}
		}
		return byForm[form]
	}
	var secrets, found int
	for _, s := range readCorpus(t, "secrets.jsonl") {
		r := mustNew(t)
		out := r.text(s.Text)
		for _, v := range s.Secrets {
			secrets++
			c := count("secret " + s.Form)
			c.n++
			if !strings.Contains(out, v) {
				found++
				c.hit++
			} else if testing.Verbose() {
				t.Logf("missed (%s): %q in %q", s.Form, v, out)
			}
		}
	}
	var looks, fps int
	for _, s := range readCorpus(t, "lookalikes.jsonl") {
		r := mustNew(t)
		out := r.text(s.Text)
		looks++
		c := count("look-alike " + s.Form)
		c.n++
		if r.Count > 0 {
			fps++
			c.hit++
			if testing.Verbose() {
				t.Logf("false positive (%s, %v): %q", s.Form, r.ByRule, out)
			}
		}
	}
	var forms []string
	for f := range byForm {
		forms = append(forms, f)
	}
	sort.Strings(forms)
	for _, f := range forms {
		c := byForm[f]
		t.Logf("%-32s %4d/%-4d", f, c.hit, c.n)
	}
	recall := float64(found) / float64(secrets)
	fp := 1000 * float64(fps) / float64(looks)
	t.Logf("recall %.4f (%d of %d secrets); false positives %.2f per 1,000 look-alikes (%d of %d)", recall, found, secrets, fp, fps, looks)
	if recall < minRecall {
		t.Errorf("recall %.4f, want at least %.2f", recall, minRecall)
	}
	if fp > maxFPPerThouse {
		t.Errorf("%.2f false positives per 1,000 look-alikes, want at most %.0f", fp, maxFPPerThouse)
	}
}

func mustNew(t testing.TB) *Redactor {
	t.Helper()
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return r
}
