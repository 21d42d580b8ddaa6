// Package schema embeds sesstool's JSON Schemas (Draft 2020-12), one file per
// format, version and entry type, and compiles them on demand.
//
// The files are data: each has an $id of Base + its path here and refers to
// its siblings by relative $ref, so the folder works as it is in ajv or
// check-jsonschema. Go code adds only the rules a schema cannot say.
package schema

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/fastschema"
)

// Base prefixes every schema's $id.
const Base = "https://sesstool.dev/schema/"

//go:embed *
var files embed.FS

// List names every schema file, sorted ("tree/v3/line.json", ...).
func List() []string {
	var out []string
	_ = fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// Read returns one schema file's bytes.
func Read(name string) ([]byte, error) {
	b, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("no schema %q (see 'sesstool schema list')", name)
	}
	return b, nil
}

// Dump writes every schema file under dir, keeping the folder layout.
func Dump(dir string) error {
	for _, name := range List() {
		b, _ := files.ReadFile(name)
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("dump %s: %w", dst, err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return fmt.Errorf("dump %s: %w", dst, err)
		}
	}
	return nil
}

var (
	once     sync.Once
	compiler *jsonschema.Compiler
	loadErr  error
	mu       sync.Mutex
	compiled = map[string]*jsonschema.Schema{}
	fastc    = &fastschema.Compiler{Load: func(u string) ([]byte, error) { return Read(strings.TrimPrefix(u, Base)) }}
	fast     sync.Map // *jsonschema.Schema -> *fastschema.Validator
)

func load() {
	compiler = jsonschema.NewCompiler()
	compiler.DefaultDraft(jsonschema.Draft2020)
	for _, name := range List() {
		b, _ := files.ReadFile(name)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			loadErr = fmt.Errorf("schema %s: %w", name, err)
			return
		}
		if err := compiler.AddResource(Base+name, doc); err != nil {
			loadErr = fmt.Errorf("schema %s: %w", name, err)
			return
		}
	}
}

// Compile returns the compiled schema for a file name such as
// "tree/v3/line.json". Results are cached; it is safe for concurrent use.
func Compile(name string) (*jsonschema.Schema, error) {
	once.Do(load)
	if loadErr != nil {
		return nil, loadErr
	}
	mu.Lock()
	defer mu.Unlock()
	if s, ok := compiled[name]; ok {
		return s, nil
	}
	s, err := compiler.Compile(Base + name)
	if err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", name, err)
	}
	compiled[name] = s
	if v, err := fastc.Compile(Base + name); err == nil {
		fast.Store(s, v)
	}
	return s, nil
}

// Accepts reports whether b is certainly a valid JSON text (UTF-8, syntax,
// no key twice in one object) that s accepts, checked on the raw bytes by
// the fast path (package fastschema). false means "not sure": decode b and
// validate it with s, which also gives the messages. s must come from
// Compile.
func Accepts(s *jsonschema.Schema, b []byte) bool {
	v, ok := fast.Load(s)
	return ok && v.(*fastschema.Validator).Valid(b)
}

// FastCompile compiles one schema file for the fast path alone; its error
// says why a schema has none (a keyword fastschema does not model).
func FastCompile(name string) (*fastschema.Validator, error) {
	mu.Lock()
	defer mu.Unlock()
	return fastc.Compile(Base + name)
}
