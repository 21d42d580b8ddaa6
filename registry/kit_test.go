package registry

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/schema"
)

// kit is the file of a layout's package that declares each method of the
// layout's interfaces (docs/adding-a-layout.md); "" stands for the file
// named after the package (ash.go, tree.go, ...).
var kit = map[string]string{
	"Name": "", "Aliases": "", "Detect": "", "DetectHead": "", "Ext": "",
	"Sessions": "store.go", "DefaultStore": "store.go", "Load": "store.go",
	"Open": "read.go", "OpenReader": "read.go", "OpenTeed": "read.go",
	"Validate": "validate.go", "ValidateReader": "validate.go",
	"Write": "write.go", "WriteTo": "write.go",
	"Versions": "migrate.go", "Version": "migrate.go", "Migrate": "migrate.go",
	"Caps": "caps.go", "Traits": "caps.go",
}

// Every registered layout's package has the kit's files, and each method
// of the layout's interfaces is declared in its kit file, so the page on
// adding a layout says where everything is and a new layout can copy any
// existing folder.
func TestLayoutKit(t *testing.T) {
	for _, l := range Layouts {
		typ := reflect.TypeOf(l.Format)
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		pkg := filepath.Base(typ.PkgPath())
		dir := filepath.Join("..", "format", pkg)
		t.Run(l.Name(), func(t *testing.T) {
			if rel := "github.com/sesstool/sesstool/format/" + pkg; typ.PkgPath() != rel {
				t.Fatalf("%s is declared in %s, not in a folder of format/", l.Name(), typ.PkgPath())
			}
			files := []string{pkg + ".go", "store.go", "read.go", "validate.go"}
			if _, ok := l.Format.(format.Writer); ok {
				files = append(files, "write.go")
			}
			if _, ok := l.Format.(format.Migrator); ok {
				files = append(files, "migrate.go")
			}
			_, caps := reflect.PointerTo(typ).MethodByName("Caps")
			_, traits := reflect.PointerTo(typ).MethodByName("Traits")
			if caps || traits {
				files = append(files, "caps.go")
			}
			for _, f := range files {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("format/%s has no %s", pkg, f)
				}
			}
			for _, d := range []string{"golden", "testdata"} {
				if fi, err := os.Stat(filepath.Join(dir, d)); err != nil || !fi.IsDir() {
					t.Errorf("format/%s has no %s/ folder", pkg, d)
				}
			}
			if !hasSchemas(pkg) {
				t.Errorf("schema/%s/ holds no schema", pkg)
			}
			if m, _ := filepath.Glob(filepath.Join("..", "testdata", "script", pkg+"*.txtar")); len(m) == 0 {
				t.Errorf("no testdata/script/%s*.txtar", pkg)
			}
			decl := methodFiles(t, dir, typ.Name())
			for i := 0; i < reflect.PointerTo(typ).NumMethod(); i++ {
				name := reflect.PointerTo(typ).Method(i).Name
				want, ok := kit[name]
				if !ok {
					continue
				}
				if want == "" {
					want = pkg + ".go"
				}
				if got := decl[name]; got != want {
					t.Errorf("%s.%s is declared in %q, want format/%s/%s", typ.Name(), name, got, pkg, want)
				}
			}
		})
	}
}

func hasSchemas(pkg string) bool {
	for _, n := range schema.List() {
		if strings.HasPrefix(n, pkg+"/") {
			return true
		}
	}
	return false
}

// methodFiles maps each method declared on typ (or *typ) in the package's
// non-test files to the file that declares it.
func methodFiles(t *testing.T, dir, typ string) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	out := map[string]string{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if ok && fn.Recv != nil && recvName(fn.Recv.List[0].Type) == typ {
				out[fn.Name.Name] = filepath.Base(name)
			}
		}
	}
	return out
}

func recvName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
