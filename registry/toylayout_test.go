package registry

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestToyLayout walks docs/adding-a-layout.md: a layout is one folder and
// one line in Layouts. A minimal layout (testdata/toy, a package of its own)
// is built in a temporary module whose go.mod replaces sesstool with this
// checkout; the registry line is added by an overlay of registry.go, and
// nothing else of sesstool changes. The binary built so must name the
// layout in its --to choices, detect its files, validate them (an error is
// a finding and exit 1) and convert both ways, the losses counted from its
// caps alone (its writer counts none). Its writer's own option (Traits) is
// one of convert's flags, handed to its writer, and refused with another
// target.
func TestToyLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sesstool with an extra layout")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(p string) string {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write("go.mod", "module toylayout\n\ngo 1.26.8\n\nrequire github.com/sesstool/sesstool v0.0.0\n\nreplace github.com/sesstool/sesstool => "+repo+"\n")
	write("go.sum", read(filepath.Join(repo, "go.sum")))
	write("toy/toy.go", read("testdata/toy/toy.go"))

	// the one registry line, before tree's (the stricter single-file layout
	// is detected first), and its import
	reg := read("registry.go")
	for _, c := range []struct{ at, insert string }{
		{"\t\"github.com/sesstool/sesstool/format/tree\"\n", "\t\"toylayout/toy\"\n"},
		{"\t{Format: tree.Format{}, Default: true},\n", "\t{Format: toy.Format{}},\n"},
	} {
		if !strings.Contains(reg, c.at) {
			t.Fatalf("registry.go has no %q to add the toy layout before", c.at)
		}
		reg = strings.Replace(reg, c.at, c.insert+c.at, 1)
	}
	write("registry.go", reg)
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(repo, "registry", "registry.go"): filepath.Join(dir, "registry.go")}})
	if err != nil {
		t.Fatal(err)
	}
	write("overlay.json", string(overlay))
	bin := filepath.Join(dir, "sesstool")
	build := exec.Command(goBin, "build", "-mod=mod", "-overlay", "overlay.json", "-o", bin, "github.com/sesstool/sesstool")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build with the toy layout: %v\n%s", err, out)
	}

	write("a.toy", "{\"toy\":1,\"id\":\"t1\"}\n{\"role\":\"user\",\"text\":\"hi\"}\n{\"role\":\"assistant\",\"text\":\"hello\"}\n")
	write("bad.toy", "{\"toy\":1,\"id\":\"t2\"}\n{\"text\":\"no role\"}\n")
	tree := filepath.Join(repo, "testdata", "samples", "tree", "pi-v3-branches.jsonl")
	for _, c := range []struct {
		name  string
		args  []string
		code  int
		want  []string // in stdout and stderr together
		file  string   // a file the command writes, and what it must hold
		holds string
	}{
		{"registered", []string{"convert", "--help"}, 0, []string{", toy, tree (pi"}, "", ""},
		{"detected", []string{"detect", "a.toy"}, 0, []string{"a.toy: toy"}, "", ""},
		{"valid", []string{"validate", "a.toy"}, 0, []string{"0 errors"}, "", ""},
		{"invalid", []string{"validate", "bad.toy"}, 1, []string{"bad.toy:2: error: not a message line (line)"}, "", ""},
		{"converted to", []string{"convert", "--to", "toy", "-o", "out.toy", tree}, 0,
			[]string{"branch flattened (toy is linear", "thinking-block dropped (toy has no thinking blocks)"},
			"out.toy", `{"role":"user","text":"The tests in ./calc fail since yesterday.`},
		{"converted from", []string{"convert", "--to", "tree", "-o", "back.jsonl", "a.toy"}, 0, nil,
			"back.jsonl", `"role":"assistant","content":[{"type":"text","text":"hello"}]`},
		{"option offered", []string{"convert", "--help"}, 0, []string{"--shout", "write every message in capitals (toy)"}, "", ""},
		{"option taken", []string{"convert", "--to", "toy", "--shout", "-o", "loud.toy", "a.toy"}, 0, nil,
			"loud.toy", `{"role":"assistant","text":"HELLO"}`},
		{"option refused", []string{"convert", "--to", "tree", "--shout", "-o", "no.jsonl", "a.toy"}, 2, []string{"--shout applies only to --to toy, not tree"}, "", ""},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s", c.name, code, c.code, out)
		}
		for _, w := range c.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: output lacks %q\n%s", c.name, w, out)
			}
		}
		if c.file != "" && !strings.Contains(read(filepath.Join(dir, c.file)), c.holds) {
			t.Errorf("%s: %s lacks %q:\n%s", c.name, c.file, c.holds, read(filepath.Join(dir, c.file)))
		}
	}
}
