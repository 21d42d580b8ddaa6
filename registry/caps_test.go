package registry

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/model"
)

var update = flag.Bool("update", false, "rewrite docs/convert.md's capability table from the declarations")

const (
	capsStart = "<!-- capabilities: generated from format/*/caps.go; go test ./registry -run TestDocsCaps -update -->\n"
	capsEnd   = "<!-- end of capabilities -->"
)

// TestDocsCaps: docs/convert.md's capability table is the layouts'
// declarations (format.Caps), so the two cannot drift.
func TestDocsCaps(t *testing.T) {
	var names []string
	var caps []format.Caps
	for _, f := range All {
		if c, ok := format.CapsOf(f); ok {
			if _, w := f.(format.Writer); !w {
				t.Errorf("%s declares capabilities but cannot be written", f.Name())
			}
			names, caps = append(names, f.Name()), append(caps, c)
		} else if _, w := f.(format.Writer); w && f.Name() != model.Name {
			t.Errorf("%s can be written but declares no capabilities (caps.go)", f.Name())
		}
	}
	want := capsTable(names, caps)
	const path = "../docs/convert.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, capsStart), strings.Index(doc, capsEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no capability table between %q and %q", path, strings.TrimSpace(capsStart), capsEnd)
	}
	got := doc[i+len(capsStart) : j]
	if *update {
		if err := os.WriteFile(path, []byte(doc[:i+len(capsStart)]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s: the capability table differs from the declarations (-code +doc); run with -update:\n%s", path, d)
	}
}
