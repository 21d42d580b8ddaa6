package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
)

func TestDirTarget(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.jsonl")
	os.WriteFile(file, nil, 0o644)
	for out, want := range map[string]bool{
		"":                                  false,
		"-":                                 false,
		"new/":                              true,
		dir:                                 true,
		file:                                false,
		filepath.Join(dir, "not-yet"):       false,
		filepath.Join(dir, "not-yet") + "/": true,
	} {
		if got := DirTarget(out); got != want {
			t.Errorf("DirTarget(%q) = %v, want %v", out, got, want)
		}
	}
}

func TestMirror(t *testing.T) {
	for _, tc := range []struct{ out, root, p, want string }{
		{"o", "store", "store/a/x.jsonl", "o/a/x.jsonl"},
		{"o", "store/x.jsonl", "store/x.jsonl", "o/x.jsonl"},
		{"o", "store", "elsewhere/x.jsonl", "o/x.jsonl"},
	} {
		if got := Mirror(tc.out, tc.root, tc.p); got != tc.want {
			t.Errorf("Mirror(%q, %q, %q) = %q, want %q", tc.out, tc.root, tc.p, got, tc.want)
		}
	}
}

func TestUniqueNames(t *testing.T) {
	jobs := []Job{{Ref: format.Ref{ID: "a"}}, {Ref: format.Ref{ID: "a"}}, {Ref: format.Ref{ID: "a-2"}}, {Ref: format.Ref{ID: "../x"}}}
	got := UniqueNames(jobs, ".md")
	want := []string{"a.md", "a-2.md", "a-2-2.md", "x.md"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("UniqueNames = %v, want %v", got, want)
			break
		}
	}
}

// The -o rule: a store is a directory whatever its count; one session is a
// file unless -o says directory.
func TestPlanOutput(t *testing.T) {
	file := Target{Name: "t", File: true, Ext: ".x", Derived: ".t.x"}
	one := []Job{{Ref: format.Ref{ID: "s1"}}}
	two := []Job{{Ref: format.Ref{ID: "s1"}}, {Ref: format.Ref{ID: "s2"}}}
	for _, tc := range []struct {
		name  string
		in    *Input
		out   string
		paths []string
	}{
		{"one session, -o FILE", &Input{Path: "a.jsonl", Jobs: one}, "o.x", []string{"o.x"}},
		{"one session, -o DIR/", &Input{Path: "a.jsonl", Jobs: one}, "d/", []string{"d/s1.x"}},
		{"one session, no -o", &Input{Path: "p/a.jsonl", Jobs: one}, "", []string{"p/a.t.x"}},
		{"store of one, -o NAME", &Input{Path: "st", Jobs: one, Store: true}, "o.x", []string{"o.x/s1.x"}},
		{"store of two, -o NAME", &Input{Path: "st", Jobs: two, Store: true}, "o.x", []string{"o.x/s1.x", "o.x/s2.x"}},
		{"store, --session, -o NAME", &Input{Path: "st", Jobs: one, Store: true, picked: true}, "o.x", []string{"o.x"}},
		{"store, no -o", &Input{Path: "st", Jobs: one, Store: true}, "", []string{"s1.x"}},
	} {
		pl, err := PlanOutput(tc.in, file, tc.out)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got := pl.Paths()
		if len(got) != len(tc.paths) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.paths)
			continue
		}
		for i := range got {
			if got[i] != filepath.Clean(tc.paths[i]) {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.paths)
				break
			}
		}
	}
	if _, err := PlanOutput(&Input{Path: "st", Jobs: two, Store: true}, file, "-"); err == nil {
		t.Error("two sessions to standard output: no error")
	}
	if _, err := PlanOutput(&Input{Path: "a", Jobs: one}, Target{Name: "dirlayout"}, "-"); err == nil {
		t.Error("a directory layout to standard output: no error")
	}
}
