package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sesstool/sesstool/internal/testkit/short"
)

// Path safety (issue 10): an id from the input that cannot be a file name
// fails validation (rule unsafe-id), so convert refuses the input (exit 1)
// before writing anything, anywhere, for every target, even with --force.

// unsafeIDs are JSON string literals.
var unsafeIDs = []string{`"../../x"`, `"/tmp/sesstool-escape/x"`, `"a\u0000b"`, `"."`, `".."`, `"a/b"`, `"a\\b"`, `"a\nb"`}

// setFirstID replaces the "id" of the first line (the session header).
func setFirstID(t *testing.T, b []byte, id string) []byte {
	t.Helper()
	first, rest, _ := strings.Cut(string(b), "\n")
	re := regexp.MustCompile(`"id":"[^"]*"`)
	if !re.MatchString(first) {
		t.Fatal("no id in the header")
	}
	return []byte(re.ReplaceAllLiteralString(first, `"id":`+id) + "\n" + rest)
}

// copyDir copies src into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// listTree lists every path under dir.
func listTree(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func TestUnsafeIDsAreRefused(t *testing.T) {
	sources := []struct {
		name  string
		build func(t *testing.T, in, id string) string // writes the input under in, returns its path
	}{
		{"flat", func(t *testing.T, in, id string) string {
			p := filepath.Join(in, "s.jsonl")
			os.WriteFile(p, setFirstID(t, readOrFail(t, "testdata/samples/flat/20261121-042425-a1bea1d6.jsonl"), id), 0o644)
			return p
		}},
		{"tree", func(t *testing.T, in, id string) string {
			p := filepath.Join(in, "s.jsonl")
			os.WriteFile(p, setFirstID(t, readOrFail(t, "format/tree/testdata/valid/v3_all.jsonl"), id), 0o644)
			return p
		}},
		{"ash", func(t *testing.T, in, id string) string {
			dir := filepath.Join(in, "telegram_-100123456_958786881_211")
			copyDir(t, "testdata/samples/ash/generated-v2/sessions/telegram_-100123456_958786881_211", dir)
			ctx := filepath.Join(dir, "context.jsonl")
			os.WriteFile(ctx, setFirstID(t, readOrFail(t, ctx), id), 0o644)
			return dir
		}},
	}
	// under -short, every source and id is still refused by validate and
	// by one convert (goat, a directory target, without --force)
	targets := short.Cases(t, []string{"goat", "ash", "opencode", "opencode-export", "tree", "flat"}, nil)
	forces := short.Cases(t, []bool{false, true}, nil)
	os.RemoveAll("/tmp/sesstool-escape")
	for _, src := range sources {
		for _, id := range unsafeIDs {
			var plain string
			json.Unmarshal([]byte(id), &plain)
			t.Run(src.name+"/"+strings.ReplaceAll(id, "/", "∕"), func(t *testing.T) {
				work := t.TempDir()
				in := filepath.Join(work, "in")
				os.MkdirAll(in, 0o755)
				path := src.build(t, in, id)
				out := filepath.Join(work, "deep", "a", "b", "out")
				os.MkdirAll(filepath.Dir(out), 0o755)
				r := runBin(t, work, nil, time.Minute, "validate", path)
				if r.code != 1 || !strings.Contains(r.out, "(unsafe-id)") {
					t.Fatalf("validate: exit %d, want 1 with an unsafe-id finding:\n%s", r.code, clipOut(r.out))
				}
				before := listTree(work)
				for _, to := range targets {
					for _, force := range forces {
						args := []string{"convert", "--to", to, "-o", out, path}
						if force {
							args = append(args[:1], append([]string{"--force"}, args[1:]...)...)
						}
						r := runBin(t, work, nil, time.Minute, args...)
						if r.code != 1 || !strings.Contains(r.out, "(unsafe-id)") || !strings.Contains(r.out, "nothing written") {
							t.Errorf("%v: exit %d, want 1 naming the unsafe id and saying nothing was written:\n%s", args[1:4], r.code, clipOut(r.out))
						}
						if after := listTree(work); strings.Join(after, "\n") != strings.Join(before, "\n") {
							t.Fatalf("%v wrote files:\n%s", args[1:4], strings.Join(after, "\n"))
						}
						if _, err := os.Lstat("/tmp/sesstool-escape"); err == nil {
							t.Fatalf("%v wrote outside the output directory", args[1:4])
						}
					}
				}
			})
		}
	}
}
