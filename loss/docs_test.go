package loss_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"sort"
	"strconv"
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

// TestKindsListsEveryConstant keeps Kinds, which the docs check uses,
// complete: every constant of type Kind declared in this package is in it.
func TestKindsListsEveryConstant(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "kind.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, k := range loss.Kinds {
		listed[string(k)] = true
	}
	declared := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Kind" {
				continue
			}
			for _, val := range v.Values {
				lit := val.(*ast.BasicLit)
				declared++
				if name, _ := strconv.Unquote(lit.Value); !listed[name] {
					t.Errorf("kind %s is declared but not in loss.Kinds", lit.Value)
				}
			}
		}
	}
	if declared != len(loss.Kinds) {
		t.Errorf("%d Kind constants declared, %d in loss.Kinds", declared, len(loss.Kinds))
	}
}
