package migrate_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/tree/migrate"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
)

// treeLayout is the tree layout once it is registered (its Migrate runs
// migrate.Tree with the tree validator); until then the bare migrate.Tree.
func treeLayout() (format.Migrator, format.Format) {
	if f, err := registry.Lookup("tree"); err == nil {
		if m, ok := f.(format.Migrator); ok {
			return m, f
		}
	}
	return migrate.Tree{}, nil
}

// FuzzTreeMigrate: migrating a fuzzed tree file to any version never
// panics; a successful migration writes a file at the target version that
// migrates to the same version unchanged, and validates as tree (once the
// tree layout is registered).
func FuzzTreeMigrate(f *testing.F) {
	m, tree := treeLayout()
	f.Fuzz(func(t *testing.T, data []byte, to uint8) {
		target := strconv.Itoa(int(to%3) + 1)
		dir := t.TempDir()
		in := filepath.Join(dir, "in.jsonl")
		out := filepath.Join(dir, "out.jsonl")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := m.Migrate(in, target, format.MigrateOptions{Out: out})
		if err != nil {
			var inv *format.InvalidError
			if errors.As(err, &inv) || errors.Is(err, format.ErrRefusedStep) {
				return
			}
			return // a header that cannot be read: reported, nothing written
		}
		if !res.Changed {
			return // already at the target: copied unchanged, nothing migrated
		}
		if got, err := m.Version(out); err != nil || got != target {
			t.Fatalf("migrated to %s, the output says version %q (%v)", target, got, err)
		}
		var again bytes.Buffer
		res2, err := m.Migrate(out, target, format.MigrateOptions{Out: "-", Stdout: &again})
		if err != nil || res2.Changed {
			t.Fatalf("migrating the output again to %s: changed %v, err %v", target, res2.Changed, err)
		}
		if tree == nil {
			return
		}
		rep := &report.Report{}
		if err := tree.Validate(out, rep, format.ValidateOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		if rep.Errors() > 0 {
			t.Fatalf("migrate output does not validate: %v", rep.Findings())
		}
	})
}
