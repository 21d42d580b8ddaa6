package convert_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const self = "github.com/sesstool/sesstool/convert"

// The conversion happens once, before the writer: no writer (format/...)
// and nothing under export/ imports this package, and outside it no
// production code calls Adapt but through For.
func TestOnlyTheStageAdapts(t *testing.T) {
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, "../"))
		if strings.HasPrefix(rel, "convert/") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		n++
		name := ""
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == self {
				name = "convert"
				if im.Name != nil {
					name = im.Name.Name
				}
				if strings.HasPrefix(rel, "format/") || strings.HasPrefix(rel, "export/") {
					t.Errorf("%s imports package convert: a writer is handed the adapted session, and export reads no conversion", rel)
				}
			}
		}
		if name == "" {
			return nil
		}
		ast.Inspect(f, func(x ast.Node) bool {
			if s, ok := x.(*ast.SelectorExpr); ok && s.Sel.Name == "Adapt" {
				if id, ok := s.X.(*ast.Ident); ok && id.Name == name {
					t.Errorf("%s: %s calls convert.Adapt: reach it through convert.For", rel, fset.Position(s.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d Go files looked at: the walk missed the module", n)
	}
}
