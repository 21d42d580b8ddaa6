// Package straytest builds the units the layouts' Unread tests list, and
// checks what Unread reports of them.
package straytest

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
)

// Write makes rel (slash-separated) under root: a folder when rel ends in
// "/", else a file holding content, its folders made as needed.
func Write(t testing.TB, root, rel string, content []byte) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if strings.HasSuffix(rel, "/") {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Check fails t unless got, what Unread reported, is exactly stray (paths
// relative to root, a trailing / a folder), in path order, with no
// folder that could not be listed.
func Check(t testing.TB, root string, got []format.Stray, stray []string) {
	t.Helper()
	var rels, want []string
	for _, s := range got {
		if s.Err != nil {
			t.Fatalf("%s: %v", s.Path, s.Err)
		}
		rel, _ := filepath.Rel(root, s.Path)
		rels = append(rels, filepath.ToSlash(rel))
	}
	for _, p := range stray {
		want = append(want, strings.TrimSuffix(p, "/"))
	}
	sort.Strings(want)
	if !reflect.DeepEqual(rels, want) {
		t.Errorf("reported %q, want %q", rels, want)
	}
}
