package loss_test

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/loss"
)

// TestDocsListKinds checks that docs/convert.md's table of loss kinds
// names exactly the kinds of this package, each once, with known actions.
func TestDocsListKinds(t *testing.T) {
	b, err := os.ReadFile("../docs/convert.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "| kind | action | meaning |")
	if start < 0 {
		t.Fatal("docs/convert.md: no loss kind table (| kind | action | meaning |)")
	}
	names := regexp.MustCompile("`([^`]+)`")
	actions := map[string]bool{}
	for _, a := range loss.Actions {
		actions[string(a)] = true
	}
	var got []string
	for _, row := range strings.Split(doc[start:], "\n")[2:] {
		if !strings.HasPrefix(row, "|") {
			break
		}
		cells := strings.Split(row, "|")
		if len(cells) < 4 {
			t.Fatalf("docs/convert.md: loss table row without three cells: %s", row)
		}
		for _, m := range names.FindAllStringSubmatch(cells[1], -1) {
			got = append(got, m[1])
		}
		for _, a := range strings.Split(cells[2], ",") {
			if !actions[strings.TrimSpace(a)] {
				t.Errorf("docs/convert.md: %q is not an action of package loss (row %s)", strings.TrimSpace(a), row)
			}
		}
	}
	var want []string
	for _, k := range loss.Kinds {
		want = append(want, string(k))
	}
	want = append(want, loss.Families...)
	sort.Strings(got)
	sort.Strings(want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("docs/convert.md's loss kinds differ from package loss (-constants +docs):\n%s", d)
	}
}

// TestKindsUnique keeps the list free of a kind named twice.
func TestKindsUnique(t *testing.T) {
	seen := map[loss.Kind]bool{}
	for _, k := range loss.Kinds {
		if seen[k] {
			t.Errorf("%s listed twice", k)
		}
		seen[k] = true
	}
}
