package loss_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoLiteralKinds holds every package of the module to the typed list: a kind or an
// action spelled as a string literal compiles (it is an untyped constant),
// so it is caught here instead.
func TestNoLiteralKinds(t *testing.T) {
	checked := 0
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != ".." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		checked += checkCalls(t, fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("found only %d loss counts in the writers: the scan is broken", checked)
	}
}

// checkCalls reports every loss count in f whose kind or action is a
// string literal, and returns how many counts it saw.
func checkCalls(t *testing.T, fset *token.FileSet, f *ast.File) int {
	checked := 0
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !countCall(sel) || len(call.Args) < 3 {
			return true
		}
		checked++
		args := call.Args[:1]
		if sel.Sel.Name == "Add" {
			args = call.Args[:2]
		}
		for _, a := range args {
			if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				t.Errorf("%s: loss kind or action spelled as the literal %s; use a constant of package loss", fset.Position(lit.Pos()), lit.Value)
			}
		}
		return true
	})
	return checked
}

// countCall reports a call of a Counter's Add or Drop: x.lost.Add(...),
// lost.Add(...), opt.Loss.Add(...).
func countCall(sel *ast.SelectorExpr) bool {
	if sel.Sel.Name != "Add" && sel.Sel.Name != "Drop" {
		return false
	}
	var recv string
	switch x := sel.X.(type) {
	case *ast.Ident:
		recv = x.Name
	case *ast.SelectorExpr:
		recv = x.Sel.Name
	}
	return recv == "lost" || recv == "Loss" || recv == "l"
}
