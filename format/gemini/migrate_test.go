package gemini_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/gemini"
	"github.com/sesstool/sesstool/internal/testkit/golden"
)

func copyFile(t *testing.T, src, dst string) []byte {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMigrateWritesBeside: a legacy session-*.json gets its .jsonl beside
// it, as the agent writes it on resume (golden, the same bytes each run);
// the .json is left as it was; a second run refuses to overwrite the
// .jsonl; a dry run writes nothing.
func TestMigrateWritesBeside(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "session-2026-01-10T08-00-8e2f4a6c.json")
	orig := copyFile(t, samples+"legacy.json", src)
	f := gemini.Format{}
	if v, err := f.Version(src); err != nil || v != gemini.V1 {
		t.Fatalf("version %q %v, want 1", v, err)
	}
	res, err := f.Migrate(src, "", format.MigrateOptions{DryRun: true})
	if err != nil || !res.Changed || res.Written != "" {
		t.Fatalf("dry run: %+v %v", res, err)
	}
	if _, err := os.Stat(src + "l"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a dry run wrote %s", src+"l")
	}
	res, err = f.Migrate(src, "", format.MigrateOptions{})
	if err != nil || res.Written != src+"l" || res.From != "1" || res.To != "2" {
		t.Fatalf("migrate: %+v %v", res, err)
	}
	got, _ := os.ReadFile(src + "l")
	golden.Assert(t, "migrated/legacy.jsonl", got)
	if now, _ := os.ReadFile(src); !bytes.Equal(now, orig) {
		t.Errorf("the .json changed")
	}
	if v, _ := f.Version(src + "l"); v != gemini.V2 {
		t.Errorf("the .jsonl is version %q", v)
	}
	if _, err := f.Migrate(src, "", format.MigrateOptions{}); err == nil {
		t.Errorf("a second migration overwrote the .jsonl")
	}
	if again, _ := os.ReadFile(src + "l"); !bytes.Equal(again, got) {
		t.Errorf("the refused migration changed the .jsonl")
	}
}

// TestMigrateRefusals: a JSON Lines file is already current, there is no
// way back to 1, and an invalid document is refused untouched.
func TestMigrateRefusals(t *testing.T) {
	f := gemini.Format{}
	res, err := f.Migrate(samples+"rewind.jsonl", "", format.MigrateOptions{})
	if err != nil || res.Changed {
		t.Errorf("a version 2 file: %+v %v", res, err)
	}
	if _, err := f.Migrate(samples+"rewind.jsonl", "1", format.MigrateOptions{}); !errors.Is(err, format.ErrRefusedStep) {
		t.Errorf("2 -> 1: %v, want a refused step", err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "session-x.json")
	copyFile(t, "testdata/invalid/legacy-schema.json", bad)
	var inv *format.InvalidError
	if _, err := f.Migrate(bad, "", format.MigrateOptions{}); !errors.As(err, &inv) {
		t.Errorf("invalid document: %v, want an InvalidError", err)
	}
	if _, err := os.Stat(bad + "l"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an invalid document was migrated")
	}
}
